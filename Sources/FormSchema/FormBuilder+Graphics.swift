import AttestationKit
import Foundation

/// The rules, pictures and QR codes of a form, and its QR code's payload.
extension FormBuilder {
    func rules(pageSize: (Int) -> PageSize) throws(FormError) -> [Rule]? {
        guard let documents = document.rules else { return nil }
        var rules: [Rule] = []
        for (index, rule) in documents.enumerated() {
            let path = "rules[\(index)]"
            let page = try pageNumber(rule.page, path: "\(path).page")
            let size = pageSize(page)
            let vertical = rule.vertical ?? false
            try checkPoint(rule.x, within: size.width, path: "\(path).x")
            try checkPoint(rule.y, within: size.height, path: "\(path).y")
            guard rule.length > 0, (vertical ? rule.y : rule.x) + rule.length <= (vertical ? size.height : size.width)
            else {
                throw fail(
                    "\(path).length",
                    "longueur positive, dans la page, attendue (vers \(vertical ? "le haut" : "la droite") depuis x, y)."
                )
            }
            let thickness = rule.thickness ?? Rule.defaultThickness
            guard thickness > 0, thickness <= Rule.maximumThickness else {
                throw fail(
                    "\(path).thickness",
                    "épaisseur de plus de 0 à \(Self.points(Rule.maximumThickness)) attendue (défaut \(Rule.defaultThickness))."
                )
            }
            guard (rule.dash ?? [1]).allSatisfy({ (1...100).contains($0) }) else {
                throw fail("\(path).dash", "longueurs entières de 1 à 100 attendues.")
            }
            rules.append(
                Rule(
                    page: page, x: rule.x, y: rule.y, length: rule.length, vertical: vertical, thickness: thickness,
                    dash: rule.dash))
        }
        return rules
    }

    func images(pageSize: (Int) -> PageSize) throws(FormError) -> [FormImage] {
        var images: [FormImage] = []
        for (index, image) in (document.images ?? []).enumerated() {
            let path = "images[\(index)]"
            let page = try pageNumber(image.page, path: "\(path).page")
            let size = pageSize(page)
            let data: [UInt8]
            let key: String
            switch (image.data, image.file) {
            case (let base64?, nil):
                key = "\(path).data"
                guard let decoded = Data(base64Encoded: base64) else {
                    throw fail(
                        key,
                        "base64 invalide ; le contenu d’un fichier PNG ou JPEG en base64 est attendu (base64 -w0 logo.png)."
                    )
                }
                data = [UInt8](decoded)
            case (nil, let file?):
                key = "\(path).file"
                guard NamePattern.isFileName(file, extensions: ["png", "PNG", "jpg", "JPG", "jpeg", "JPEG"])
                else {
                    throw fail(
                        key,
                        "nom de fichier invalide ; un fichier .png ou .jpg à côté du formulaire est attendu (lettres, chiffres, « . », « _ », « - », sans dossier)."
                    )
                }
                do {
                    data = try files.read(file, limit: FormImage.maximumBytes).bytes
                } catch {
                    throw fail(key, "image « \(file) » inutilisable : \(error.reason).")
                }
            default:
                throw fail(path, "data ou file attendu, l’un des deux : l’image en base64, ou le nom de son fichier.")
            }
            let named = image.file.map { "image « \($0) »" } ?? "image"
            guard data.count <= FormImage.maximumBytes else {
                throw fail(
                    key,
                    "\(named) trop grande (\(data.count / 1024) Kio) ; \(FormImage.maximumBytes / 1024) Kio au plus.")
            }
            guard let header = ImageHeader(bytes: data) else {
                throw fail(key, "\(named) : ni PNG ni JPEG lisible ; une image PNG ou JPEG est attendue.")
            }
            guard header.width <= FormImage.maximumSide, header.height <= FormImage.maximumSide,
                header.width * header.height <= FormImage.maximumPixels
            else {
                throw fail(
                    key,
                    "\(named) de \(header.width) × \(header.height) pixels, trop grande ; \(FormImage.maximumSide) pixels de côté et \(FormImage.maximumPixels) pixels en tout au plus (2048 × 2048 : un logo de 17 cm à 300 dpi)."
                )
            }
            guard image.width > 0, image.height > 0, image.x >= 0, image.y >= 0,
                image.x + image.width <= size.width, image.y + image.height <= size.height
            else {
                throw fail(path, "l’image doit tenir dans la page (x, y, width, height en points).")
            }
            images.append(
                FormImage(
                    page: page, x: image.x, y: image.y, width: image.width, height: image.height,
                    format: header.format, bytes: data, pixelWidth: header.width, pixelHeight: header.height,
                    fileName: image.file))
        }
        return images
    }

    func qrPayload(reasons: [Reason]) throws(FormError) -> QRPayloadFormat {
        let d = document.qrPayload
        for (index, line) in d.lines.enumerated() {
            for name in FieldValues.names(in: line) where !FieldValues.placeholders.contains(name) {
                throw fail(
                    "qrPayload.lines[\(index)]", "variable inconnue {\(name)} ; acceptées : \(Self.knownPlaceholders).")
            }
        }
        let format = QRPayloadFormat(
            lines: d.lines, separator: d.separator, trailingSeparator: d.trailingSeparator,
            asciiFolding: d.asciiFolding ?? true)
        let longest = format.longestBytes(reasonCodes: reasons.map(\.code))
        guard longest <= QRPayloadFormat.maximumBytes else {
            throw fail(
                "qrPayload",
                "trop long pour un QR code avec les valeurs les plus longues (\(longest) octets, \(QRPayloadFormat.maximumBytes) au plus) ; raccourcissez le texte fixe."
            )
        }
        return format
    }

    func qrCodes(pageSize: (Int) -> PageSize) throws(FormError) -> [QRPlacement] {
        let placements = document.qrCodes
        guard !placements.isEmpty else { throw fail("qrCodes", "au moins un QR code est attendu.") }
        for (index, placement) in placements.enumerated() {
            _ = try pageNumber(placement.page, path: "qrCodes[\(index)].page")
            let size = pageSize(placement.page)
            guard placement.size > 0, placement.x >= 0, placement.y >= 0,
                placement.x + placement.size <= size.width, placement.y + placement.size <= size.height
            else {
                throw fail("qrCodes[\(index)]", "le QR code doit tenir dans la page.")
            }
        }
        return placements
    }
}
