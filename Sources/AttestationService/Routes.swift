import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation
import HTTPServer
import LinkTokens
import Rendering

/// The routes, as plain functions of the request and one snapshot.
struct Routes {
    let snapshot: ServiceSnapshot
    let metrics: ServiceMetrics
    let health: Health
    let metricsExposition: @Sendable () -> [UInt8]
    /// The moment the request is answered: `Cree le`, the exit time's reference, the form in force.
    let now: Date

    /// Every response: the token is in URLs, so no page may send it on as a referrer.
    static let commonHeaders: [(name: String, value: String)] = [
        ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
    ]
    /// Responses that carry personal data, and errors: kept by no cache.
    static let privateHeaders = commonHeaders + [("Cache-Control", "no-store")]
    /// The static site loads nothing from elsewhere and is framed by no one.
    static let pageHeaders =
        commonHeaders + [
            (
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
            ),
            ("X-Frame-Options", "DENY"),
        ]

    /// What a request came to: the response, and for the log and metrics the route's name and,
    /// when refused, the reason.
    struct Outcome {
        let route: String
        let response: HTTPResponse
        let refusal: String?
        /// The pinned form a verified link asked for and this server lacks.
        var missingForm: String? = nil
    }

    func respond(to request: HTTPRequest) -> Outcome {
        let route = Self.routeName(request.path, files: snapshot.publicFiles)
        // Every refusal under /api/ is JSON, the 405 included: the page's script reads `error`.
        let json = request.path.hasPrefix("/api/")
        guard request.isGetOrHead else {
            let refusal = RouteError(
                status: 405,
                message: "méthode \(Self.shownMethod(request.method)) non acceptée ; seules GET et HEAD le sont.",
                reason: "method_not_allowed")
            return Outcome(
                route: route, response: Self.error(refusal, json: json, extraHeaders: [("Allow", "GET, HEAD")]),
                refusal: refusal.reason)
        }
        do throws(RouteError) {
            return Outcome(route: route, response: try respondGet(to: request, route: route), refusal: nil)
        } catch {
            if Self.attestationRoutes.contains(request.path), ErrorPage.wanted(by: request) {
                return Outcome(
                    route: route,
                    response: ErrorPage.response(
                        error, personalPage: personalPage(of: request),
                        contact: snapshot.state.configuration.contact),
                    refusal: error.reason, missingForm: error.missingForm)
            }
            return Outcome(
                route: route, response: Self.error(error, json: json), refusal: error.reason,
                missingForm: error.missingForm)
        }
    }

    private func respondGet(to request: HTTPRequest, route: String) throws(RouteError) -> HTTPResponse {
        switch request.path {
        case "/attestation.pdf": return try attestation(request, format: .pdf)
        case "/attestation.png": return try attestation(request, format: .png)
        case "/attestation-papier.pdf": return try paperAttestation(request)
        case "/api/v1/link": return try APIRoutes.link(request, snapshot: snapshot, now: now)
        case "/api/v1/forms": return try APIRoutes.forms(request, snapshot: snapshot)
        case "/api/v1/template": return try APIRoutes.template(request, snapshot: snapshot, now: now)
        case "/api/v1/manifest": return try APIRoutes.manifest(request, snapshot: snapshot, now: now)
        case "/licenses": return try LicensesPage.response(request)
        case "/healthz":
            _ = try QueryParameters.parse(request.query, accepted: [])
            return health.response
        case "/metrics":
            // Built-in TLS puts the server on the network with no proxy to keep /metrics inside.
            guard let peer = request.peerAddress, snapshot.metricsFrom.contains(where: { $0.contains(peer) }) else {
                throw RouteError(
                    status: 403,
                    message:
                        "accès refusé : /metrics ne répond qu’aux adresses de server.metricsFrom (\(snapshot.metricsFrom.map(\.description).joined(separator: ", "))).",
                    reason: "metrics_forbidden")
            }
            _ = try QueryParameters.parse(request.query, accepted: [])
            return HTTPResponse(
                status: 200,
                headers: Self.privateHeaders + [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: metricsExposition())
        default:
            if let response = snapshot.publicFiles.response(for: request, headers: Self.pageHeaders) { return response }
            throw RouteError(status: 404, message: "page introuvable.", reason: "not_found")
        }
    }

    /// What `/healthz` says, as JSON: `ok`; `degraded` (200: the last good configuration still
    /// serves, safely, while the files on disk do not load, or while the revocation list lacks
    /// ids revoked before, which stay revoked); `stopping` (503: load balancers move away).
    enum Health {
        case ok
        case degraded(Service.RefusedReload)
        case revocationsMissing(Service.MissingRevocations)
        /// Verified links asked for pinned forms this server does not have (their ids).
        case formsMissing([String])
        case stopping

        var response: HTTPResponse {
            struct Body: Encodable {
                let status: String
                var reason: String?
                var since: String?
                var file: String?
                var jsonPath: String?
                var error: String?
                var missingRevokedIDs: Int?
                var missingForms: [String]?
            }
            let (status, body): (Int, Body) =
                switch self {
                case .ok: (200, Body(status: "ok"))
                case .stopping: (503, Body(status: "stopping"))
                case .degraded(let refused):
                    (
                        200,
                        Body(
                            status: "degraded", reason: "reload_refused", since: refused.since.formatted(.iso8601),
                            file: refused.error.source, jsonPath: refused.error.path.isEmpty ? nil : refused.error.path,
                            error: refused.error.message)
                    )
                case .revocationsMissing(let missing):
                    (
                        200,
                        Body(
                            status: "degraded", reason: "revoked_ids_missing_from_list",
                            since: missing.since.formatted(.iso8601), file: missing.file,
                            error:
                                "\(missing.count) identifiant(s) révoqué(s) absent(s) de la liste : ils restent révoqués jusqu’au redémarrage.",
                            missingRevokedIDs: missing.count)
                    )
                case .formsMissing(let ids):
                    (
                        200,
                        Body(
                            status: "degraded", reason: "forms_missing",
                            error:
                                "des liens demandent des formulaires absents de ce serveur (\(ids.joined(separator: ", "))) ; remettez leurs fichiers dans formsDirectory, ou donnez de nouveaux liens à leurs titulaires.",
                            missingForms: ids)
                    )
                }
            return HTTPResponse(
                status: status, headers: Routes.privateHeaders + [("Content-Type", "application/json")],
                body: APIRoutes.encode(body))
        }
    }

    static let attestationRoutes: Set<String> = ["/attestation.pdf", "/attestation.png", "/attestation-papier.pdf"]

    /// See `Service.isExpensive`. Measured on the release server (curl, 5 runs): a page image
    /// 34–38 ms at 300 dpi and 6 ms at the default; a QR code of 4,096 pixels 38–105 ms; a
    /// template 12–57 ms; a QR code at the default size 1 ms, a PDF 0.8 ms.
    static func isExpensive(_ request: HTTPRequest) -> Bool {
        switch request.path {
        case "/api/v1/template": return true
        case "/attestation.png":
            return request.query.contains { item in
                item.name == "page" || (item.name == "size" && (Int(item.value ?? "") ?? 0) > largestCheapQRCode)
            }
        default: return false
        }
    }

    /// The largest QR code drawn on a worker, in pixels: about a millisecond.
    static let largestCheapQRCode = 1024

    /// The person's page (`/?t=…`) of a request whose token verifies: where a refused
    /// parameter can be chosen right.
    private func personalPage(of request: HTTPRequest) -> String? {
        guard let token = request.query.first(where: { $0.name == "t" })?.value, !token.isEmpty,
            (try? snapshot.state.verify(token: token, now: now)) != nil
        else { return nil }
        return "/?t=" + token
    }

    enum Format: String {
        case pdf, png
    }

    static let attestationParameters = ["t", "offset", "at", "reasons", "context"]

    private func attestation(_ request: HTTPRequest, format: Format) throws(RouteError) -> HTTPResponse {
        let accepted =
            format == .png ? Self.attestationParameters + ["size", "page", "dpi"] : Self.attestationParameters
        let values = try QueryParameters.parse(request.query, accepted: accepted)
        let linkRequest = LinkRequest(
            token: try QueryParameters.token(in: values), offset: values["offset"], at: values["at"],
            reasons: values["reasons"], context: values["context"])
        // `/attestation.png` is the QR code alone (`size`), or a whole page with `page` (`dpi`).
        let image = try Self.pngImage(values)
        let attestation: Attestation
        do { attestation = try snapshot.state.attestation(for: linkRequest, now: now) } catch {
            throw RouteError(error)
        }

        let start = ContinuousClock.now
        let body: [UInt8]
        do {
            switch (format, image) {
            case (.pdf, _): body = try snapshot.renderer.pdf(attestation)
            case (.png, .qrCode(let size)): body = try snapshot.renderer.qrPNG(attestation, size: size)
            case (.png, .page(let page, let dpi)):
                body = try snapshot.renderer.pagePNG(attestation, page: page, dpi: dpi)
            }
        } catch {
            // A form whose attestation has fewer pages than asked: the request, not the server.
            if case .pageNumber = error { throw .badParameter(error.description) }
            throw RouteError(
                status: 500,
                message: "erreur interne : \(error.description) Réessayez ou prévenez votre administrateur.",
                reason: "render_failed")
        }
        let metricFormat = if format == .png, case .page = image { "page_png" } else { format.rawValue }
        metrics.render(format: metricFormat, duration: ContinuousClock.now - start)

        let stem = String(attestation.fileName.dropLast(4))
        let fileName =
            switch (format, image) {
            case (.pdf, _): attestation.fileName
            case (.png, .qrCode): stem + ".png"
            case (.png, .page(let page, _)): stem + "-page\(page).png"
            }
        return HTTPResponse(
            status: 200,
            headers: Self.privateHeaders + [
                ("Content-Type", format == .pdf ? "application/pdf" : "image/png"),
                ("Content-Disposition", "inline; filename=\"\(fileName)\""),
            ],
            body: body)
    }

    static let defaultPNGSize = 400

    /// What `/attestation.png` draws.
    enum PNGRequest: Equatable {
        /// The QR code alone, about `size` pixels wide.
        case qrCode(size: Int)
        /// A page of the attestation, from 1, `dpi` pixels an inch.
        case page(Int, dpi: Int)
    }

    /// `size` for the QR code alone; `page` (1 to `Form.maximumPages`; the renderer then refuses
    /// a page the attestation's form does not have) and `dpi` for a whole page. Only read for
    /// the PNG route (the PDF's parser refuses the three).
    private static func pngImage(_ values: [String: String]) throws(RouteError) -> PNGRequest {
        guard let pageText = values["page"] else {
            guard values["dpi"] == nil else {
                throw .badParameter(
                    "le paramètre dpi ne s’applique qu’à une page entière ; ajoutez page=1 ou page=2, ou retirez dpi.")
            }
            return .qrCode(size: try pngSize(values["size"]))
        }
        guard values["size"] == nil else {
            throw .badParameter(
                "le paramètre size ne s’applique qu’au QR code seul ; pour une page entière (page=\(pageText)), "
                    + "la taille se règle avec dpi, de \(AttestationRenderer.pageDPIs.lowerBound) à \(AttestationRenderer.pageDPIs.upperBound)."
            )
        }
        guard let page = Int(pageText), (1...Form.maximumPages).contains(page) else {
            throw .badParameter(
                "page invalide ; un numéro de 1 à \(Form.maximumPages) est attendu, dans les pages de l’attestation "
                    + "(1 : le formulaire rempli ; 2 : le grand QR code des formulaires officiels).")
        }
        let dpis = AttestationRenderer.pageDPIs
        let defaultDPI = AttestationRenderer.defaultPageDPI
        guard let dpiText = values["dpi"] else { return .page(page, dpi: defaultDPI) }
        guard let dpi = Int(dpiText), dpis.contains(dpi) else {
            throw .badParameter(
                "résolution (dpi) invalide ; un nombre de points par pouce de \(dpis.lowerBound) à \(dpis.upperBound) est attendu (défaut \(defaultDPI))."
            )
        }
        return .page(page, dpi: dpi)
    }

    private static func pngSize(_ text: String?) throws(RouteError) -> Int {
        guard let text else { return defaultPNGSize }
        let range = AttestationRenderer.pngSizes
        guard let size = Int(text), range.contains(size) else {
            throw .badParameter(
                "size invalide ; un nombre de pixels de \(range.lowerBound) à \(range.upperBound) est attendu (défaut \(defaultPNGSize))."
            )
        }
        return size
    }

    /// A refusal, as text or, under `/api/`, as `{"error": "…"}`.
    static func error(
        _ error: RouteError, json: Bool, extraHeaders: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        let message = error.message.prefix(1).uppercased() + error.message.dropFirst()
        if json {
            return HTTPResponse(
                status: error.status,
                headers: privateHeaders + extraHeaders + [("Content-Type", "application/json")],
                body: APIRoutes.encode(["error": message]))
        }
        return .text(error.status, message + "\n", headers: privateHeaders + extraHeaders)
    }

    /// A request the HTTP server refused before any route: what is wrong and what is accepted.
    static func refusal(_ refusal: HTTPRefusal, request: HTTPRequest?) -> HTTPResponse {
        let message: String
        switch refusal.reason {
        case .bodyNotAccepted: message = "corps de requête refusé : ce service n’accepte que GET et HEAD, sans corps."
        case .uriTooLong(let limit): message = "adresse trop longue : \(limit) octets au plus."
        case .tooManyParameters(let limit): message = "trop de paramètres dans l’adresse : \(limit) au plus."
        case .headersTooLarge(let limit): message = "en-têtes trop longs : \(limit) octets au plus."
        case .versionNotSupported: message = "version HTTP non prise en charge ; HTTP/1.0 et HTTP/1.1 le sont."
        case .overloaded(let seconds):
            message =
                "serveur occupé : trop d’images ou de modèles hors ligne sont demandés en même temps ; réessayez dans \(seconds) s."
        case .malformed(let malformation):
            let detail =
                switch malformation {
                case .missingHost: "en-tête Host manquant, obligatoire en HTTP/1.1"
                case .duplicateHost: "plusieurs en-têtes Host ; un seul est accepté"
                case .duplicateContentLength: "plusieurs en-têtes Content-Length ; un seul est accepté"
                case .conflictingFraming:
                    "Transfer-Encoding avec Content-Length, ou répété ; un seul des deux, une fois, est accepté"
                case .invalidHeaderName:
                    "nom d’en-tête invalide (espace avant les deux-points ?) ; lettres, chiffres et !#$%&'*+-.^_`|~ sont acceptés"
                case .foldedHeader: "en-tête continué sur la ligne suivante ; un en-tête tient sur une ligne"
                case .nulInPath: "caractère nul (%00) dans le chemin"
                case .whitespaceInTarget:
                    "espace ou caractère de contrôle dans l’adresse ; encodez-les (%20) ou retirez-les"
                case .invalidLine:
                    "ligne qui ne finit pas par CRLF, ou en-tête sans nom ; chaque ligne finit par CRLF et chaque en-tête a un nom"
                }
            message = "requête mal formée : \(detail)."
        }
        return error(
            RouteError(status: refusal.status, message: message, reason: "http_\(refusal.status)"),
            json: request?.path.hasPrefix("/api/") ?? false)
    }

    static let fixedRoutes: Set<String> = [
        "/attestation.pdf", "/attestation.png", "/attestation-papier.pdf", "/api/v1/link", "/api/v1/forms",
        "/api/v1/template", "/api/v1/manifest",
        "/healthz", "/metrics", "/licenses",
    ]

    /// A fixed route, a file of the site, or `other`: nothing a client chose freely.
    static func routeName(_ path: String, files: PublicFiles) -> String {
        if fixedRoutes.contains(path) || files.files[path] != nil { return path }
        return "other"
    }

    private static func shownMethod(_ method: String) -> String {
        method.count <= 10 && method.allSatisfy({ $0.isASCII && $0.isUppercase }) ? method : "inconnue"
    }
}
