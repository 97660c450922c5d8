import AttestationConfiguration
import AttestationKit
import AttestationService
import Foundation
import HTTPServer
import LinkTokens

/// `query`: a request to the real service, without a socket. The input is the request line's
/// target, optionally after a method, then header lines:
///
///     [METHOD ]PATH[?QUERY]
///     Name: value
///
/// The query is split and percent-decoded as libmicrohttpd does before our code sees it (see
/// `MHDQuery`). A `t` whose value is `$0` … `$7` stands for the token of `Fixture.links[N]`,
/// so the fuzzer reaches the parameters (`offset`, `at`, `reasons`, `size`) and the rendering
/// behind a valid link instead of spending its time against the signature.
enum QueryTarget {
    static let fixedRoutes: Set<String> = [
        "/attestation.pdf", "/attestation.png", "/attestation-papier.pdf", "/api/v1/link", "/api/v1/forms",
        "/api/v1/template", "/api/v1/manifest", "/healthz", "/metrics", "/licenses",
    ]
    /// The routes that read a link: the only ones that may answer 410 or 500.
    static let linkRoutes: Set<String> = [
        "/attestation.pdf", "/attestation.png", "/attestation-papier.pdf", "/api/v1/link", "/api/v1/template",
        "/api/v1/manifest",
    ]
    static let loggedMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "OTHER",
    ]

    static func run(_ input: [UInt8]) {
        let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
        guard let requestLine = lines.first else { return }
        var method = "GET"
        var target = Array(requestLine)
        if let space = target.firstIndex(of: UInt8(ascii: " ")), space > 0 {
            method = MHDQuery.text(Array(target[..<space]))
            target = Array(target[(space + 1)...])
        }
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let path = MHDQuery.text(MHDQuery.unescape(Array(target[..<(question ?? target.endIndex)]), plus: false))
        var query = question.map { MHDQuery.parse(Array(target[($0 + 1)...])) } ?? []
        let headers: [(name: String, value: String)] = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
            return (
                MHDQuery.text(Array(line[..<colon])),
                MHDQuery.text(Array(line[(colon + 1)...])).trimmingCharacters(in: .whitespaces)
            )
        }

        // Placeholders become real tokens; the request as written is kept for the checks.
        let written = query
        var link: Fixture.Link?
        for index in query.indices where query[index].name == "t" {
            if let value = query[index].value, value.count == 2, value.first == "$",
                let n = value.last?.wholeNumberValue,
                n < Fixture.links.count
            {
                link = Fixture.links[n]
                query[index].value = Fixture.links[n].token
            }
        }
        checkParameterParsers(requestLine: String(decoding: requestLine, as: UTF8.self), query: query)

        let request = HTTPRequest(method: method, path: path, query: query, headers: headers)
        _ = Fixture.logLines.take()
        let response = Fixture.service.respond(to: request)
        let logged = Fixture.logLines.take()
        check(response, to: request, written: written, headers: headers, link: link, logged: logged)
    }

    // MARK: The response

    static func check(
        _ response: HTTPResponse, to request: HTTPRequest, written: [QueryItem],
        headers: [(name: String, value: String)], link: Fixture.Link?, logged: [String]
    ) {
        let status = response.status
        let token = request.query.last(where: { $0.name == "t" })?.value
        require([200, 304, 400, 403, 404, 405, 410, 500, 503].contains(status), "statut inattendu \(status)")
        require(response.header("Referrer-Policy") == "no-referrer", "Referrer-Policy absent")
        require(response.header("X-Content-Type-Options") == "nosniff", "X-Content-Type-Options absent")
        checkLog(logged, request: request, status: status, bytes: response.body.count)

        if [500, 503, 410].contains(status) {
            require(linkRoutes.contains(request.path), "\(status) hors des routes de lien")
        }
        if [500, 503, 410].contains(status) {
            // Only the fixture's links that are meant to fail this way, and their token must
            // have been the one read (a repeated `t` is refused before).
            require(link?.refusal == status && token == link?.token, "\(status) pour un lien qui ne le justifie pas")
        }
        if status == 405 { require(!request.isGetOrHead && response.header("Allow") == "GET, HEAD", "405 sans Allow") }
        if !request.isGetOrHead { require(status == 405, "méthode \(request.method) acceptée") }

        if status >= 400 {
            checkRefusal(response, request: request, written: written, headers: headers)
            return
        }
        switch request.path {
        case "/attestation.pdf", "/attestation.png":
            require(status == 200, "statut \(status) sur une attestation")
            let verified = LinkToken.verify(token ?? "", keys: Fixture.ring, revoked: Fixture.revoked)
            guard case .valid(let contents, _) = verified else {
                require(false, "attestation donnée pour un lien qui ne se vérifie pas")
                return
            }
            if link?.contents.lockReasons == true || contents.lockReasons {
                require(
                    request.query.allSatisfy { $0.name != "reasons" || ($0.value ?? "").isEmpty },
                    "motifs imposés remplacés")
            }
            let disposition = response.header("Content-Disposition") ?? ""
            let page = request.query.first(where: { $0.name == "page" && !($0.value ?? "").isEmpty })?.value
            require(
                disposition.wholeMatch(
                    of: /inline; filename="attestation-\d{4}-\d\d-\d\d_\d\d-\d\d(-page[12])?\.(pdf|png)"/) != nil
                    && disposition.contains("-page") == (page != nil),
                "Content-Disposition inattendu")
            require(response.header("Cache-Control") == "no-store", "attestation gardée en cache")
            if request.path == "/attestation.pdf" {
                require(response.header("Content-Type") == "application/pdf", "type du PDF")
                require(response.body.starts(with: Array("%PDF-".utf8)), "PDF sans en-tête")
            } else {
                require(response.header("Content-Type") == "image/png", "type du PNG")
                if page != nil {
                    let dpi = request.query.first(where: { $0.name == "dpi" && !($0.value ?? "").isEmpty })?.value
                    checkPagePNG(response.body, dpi: dpi.map { Int($0)! } ?? 150)
                } else {
                    let size = request.query.first(where: { $0.name == "size" && !($0.value ?? "").isEmpty })?.value
                    checkPNG(response.body, size: size.map { Int($0)! } ?? 400)
                }
            }
        case "/attestation-papier.pdf":
            // The identity only, to fill in by hand: a valid link, no moment, a PDF not kept.
            require(status == 200, "statut \(status) sur l’attestation papier")
            guard case .valid = LinkToken.verify(token ?? "", keys: Fixture.ring, revoked: Fixture.revoked) else {
                require(false, "attestation papier donnée pour un lien qui ne se vérifie pas")
                return
            }
            require(
                response.header("Content-Disposition") == "inline; filename=\"attestation-papier.pdf\"",
                "Content-Disposition inattendu")
            require(response.header("Cache-Control") == "no-store", "attestation papier gardée en cache")
            require(response.header("Content-Type") == "application/pdf", "type du PDF papier")
            require(response.body.starts(with: Array("%PDF-".utf8)), "PDF papier sans en-tête")
        case "/api/v1/link", "/api/v1/template", "/api/v1/manifest":
            require(status == 200, "statut \(status) sur \(request.path)")
            guard
                case .valid(let contents, _) = LinkToken.verify(
                    token ?? "", keys: Fixture.ring, revoked: Fixture.revoked),
                let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            else {
                require(false, "\(request.path) : lien invalide accepté ou JSON illisible")
                return
            }
            checkLinkJSON(object, of: contents, token: token ?? "", path: request.path)
            require(response.header("Cache-Control") == "no-store", "\(request.path) gardé en cache")
        case "/api/v1/forms":
            require(
                (try? JSONSerialization.jsonObject(with: Data(response.body))) is [String: Any],
                "/api/v1/forms : JSON illisible")
        case "/healthz":
            // Degraded once a request asked for the fixture's link whose form is not installed.
            let missing = Array(
                "{\"error\":\"des liens demandent des formulaires absents de ce serveur (formulaire-absent)".utf8)
            require(
                response.body == Array("{\"status\":\"ok\"}\n".utf8) || response.body.starts(with: missing),
                "/healthz")
        case "/metrics":
            require(response.body == Fixture.metricsText, "/metrics")
        case "/licenses":
            require(
                status == 304 || response.body.starts(with: Array("<!DOCTYPE html>".utf8))
                    || response.body.starts(with: Array("<!doctype html>".utf8)),
                "/licenses n’est pas une page")
        default:
            guard let file = Fixture.service.snapshot.publicFiles.files[request.path] else {
                require(false, "réponse \(status) pour un chemin hors du site")
                return
            }
            require(status == 304 || response.body == file.body, "fichier servi différent du fichier lu")
            require(response.header("ETag") == file.etag, "ETag différent")
            if status == 304 {
                require(response.body.isEmpty && request.header("If-None-Match") != nil, "304 sans If-None-Match")
            }
        }
    }

    /// What each route that reads a link says of it, against the link as signed.
    static func checkLinkJSON(_ object: [String: Any], of contents: LinkContents, token: String, path: String) {
        switch path {
        case "/api/v1/link":
            require(object["firstName"] as? String == contents.identity.firstName, "\(path) : prénom différent")
            if contents.formID != nil {
                require(object["defaultReasons"] as? [String] == contents.reasons, "\(path) : motifs différents")
            } else {
                // Carried into the version in force, or asked for: every reason of the link is one or the other.
                let carried = (object["defaultReasons"] as? [String] ?? []).count
                let missing = (object["missingReasons"] as? [String] ?? []).count
                require(carried + missing >= min(1, contents.reasons.count), "\(path) : motifs perdus")
            }
            require(object["lockReasons"] as? Bool == contents.lockReasons, "\(path) : verrou différent")
        case "/api/v1/template":
            let pdf = (object["pdf"] as? String).flatMap { Data(base64Encoded: $0) }
            require(pdf?.starts(with: Array("%PDF-".utf8)) == true, "\(path) : modèle sans PDF")
            require(
                object["formID"] as? String == contents.formID
                    || (contents.formID == nil && object["version"] is [String: Any]), "\(path) : formulaire différent")
            require(object["lockReasons"] as? Bool == contents.lockReasons, "\(path) : verrou différent")
        default:
            require(object["start_url"] as? String == "/?t=" + token, "\(path) : start_url différent")
            require(object["short_name"] as? String == contents.identity.firstName, "\(path) : prénom différent")
        }
    }

    /// A refusal: short French text (JSON under /api/), never the token, never a person's data
    /// the request did not carry itself, never kept by a cache.
    static func checkRefusal(
        _ response: HTTPResponse, request: HTTPRequest, written: [QueryItem],
        headers: [(name: String, value: String)]
    ) {
        require(response.header("Cache-Control") == "no-store", "refus gardé en cache")
        var message: String
        if request.path.hasPrefix("/api/") {
            require(response.header("Content-Type") == "application/json", "refus de l’API sans JSON")
            let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
            message = object?["error"] ?? ""
        } else {
            require(response.header("Content-Type") == "text/plain; charset=utf-8", "refus hors texte")
            message = String(decoding: response.body, as: UTF8.self)
            require(message.hasSuffix("\n"), "refus sans fin de ligne")
            message.removeLast()
        }
        require(message.first.map { $0.isLetter && $0.isUppercase } == true, "refus vide ou sans majuscule")
        require(message.count <= 400, "refus de \(message.count) caractères")

        // What the request carried, other than the tokens: what a refusal may quote back.
        let tokens = request.query.filter { $0.name == "t" }.compactMap(\.value)
        var carried = [request.path, request.method] + headers.flatMap { [$0.name, $0.value] }
        for item in written where item.name != "t" { carried += [item.name, item.value ?? ""] }
        let secrets = tokens.filter { $0.count >= 12 } + Fixture.personalValues
        for secret in secrets where !carried.contains(where: { holds($0, secret) }) {
            require(!holds(message, secret), "le refus montre le lien ou une donnée personnelle")
        }
    }

    /// One record per request, of fixed shape: the message `request` and the metadata request
    /// id, method, route name, status, duration, size and, for a refusal, its reason; nothing else.
    static func checkLog(_ logged: [String], request: HTTPRequest, status: Int, bytes: Int) {
        require(logged.count == 1, "\(logged.count) lignes de journal pour une requête")
        let fields = logged.first?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        require(fields.first == "request", "message de journal autre que request")
        var values: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else {
                require(false, "champ de journal sans clé")
                return
            }
            values[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        let keys = Set(values.keys)
        require(
            keys.isSubset(of: ["request_id", "method", "route", "status", "duration_ms", "bytes", "refusal"])
                && keys.isSuperset(of: ["request_id", "method", "route", "status", "duration_ms", "bytes"]),
            "clés du journal inattendues : \(keys.sorted())")
        let route = values["route"] ?? ""
        require(loggedMethods.contains(values["method"] ?? ""), "méthode journalisée telle que reçue")
        require(
            route == "other" || fixedRoutes.contains(route) || Fixture.service.snapshot.publicFiles.files[route] != nil,
            "route journalisée hors de la liste fixe")
        require(route == "other" || route == request.path, "route journalisée différente du chemin")
        require(values["status"] == "\(status)" && values["bytes"] == "\(bytes)", "statut ou taille journalisés faux")
        require(Double(values["duration_ms"] ?? "") != nil, "durée journalisée illisible")
        require((values["refusal"] != nil) == (status >= 400), "raison de refus absente ou en trop")
        require(
            values["refusal"]?.allSatisfy({ $0.isASCII && ($0.isLowercase || $0 == "_" || $0.isNumber) }) ?? true,
            "raison de refus hors de la liste fixe")
    }

    /// The PNG signature and a square IHDR: at most the size asked for (whole pixels per
    /// module), and more than half of it.
    static func checkPNG(_ body: [UInt8], size: Int) {
        require(
            body.count > 24 && body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG sans signature"
        )
        let width = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = body[20..<24].reduce(0) { $0 << 8 | Int($1) }
        require(
            width == height && width <= size && width * 2 > size,
            "PNG de \(width)×\(height) pixels pour \(size) demandés")
    }

    /// A whole A4 page (595.28 × 841.89 points) at `dpi` pixels an inch, portrait.
    static func checkPagePNG(_ body: [UInt8], dpi: Int) {
        require(
            body.count > 24 && body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG sans signature"
        )
        let width = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = body[20..<24].reduce(0) { $0 << 8 | Int($1) }
        let expected = (Int((595.28 * Double(dpi) / 72).rounded(.up)), Int((841.89 * Double(dpi) / 72).rounded(.up)))
        require(
            abs(width - expected.0) <= 1 && abs(height - expected.1) <= 1,
            "page PNG de \(width)×\(height) pixels à \(dpi) dpi")
    }

    // MARK: The parsers on their own

    /// The parsers behind the routes, on the same values: each accepted value reads back the same
    /// once written in its canonical form.
    static func checkParameterParsers(requestLine: String, query: [QueryItem]) {
        // `attestation-admin inspect|render|revoke` take a link or a bare token.
        let extracted = LinkRequest.token(fromLinkOrToken: requestLine)
        if !holds(requestLine, "?") && !holds(requestLine, "://") {
            require(extracted == requestLine.trimmingCharacters(in: .whitespacesAndNewlines), "jeton nu modifié")
        }
        for item in query {
            guard let value = item.value else { continue }
            switch item.name {
            case "offset":
                if case .offset(let minutes)? = try? ExitTime.offset(parsing: value) {
                    require(
                        (try? ExitTime.offset(parsing: String(minutes))) == .offset(minutes: minutes),
                        "offset relu différemment")
                }
            case "at":
                if case .at(let hour, let minute)? = try? ExitTime.at(parsing: value) {
                    let text = String(format: "%02d:%02d", hour, minute)
                    require(text == value, "at accepté sous une autre forme que HH:MM")
                }
            default:
                break
            }
        }
    }
}

/// The query string as libmicrohttpd 0.9.75 hands it to the access handler
/// (`MHD_parse_arguments_`): split on `&`, then at the first `=`; `+` becomes a space, then
/// `%HH` is decoded; a part without `=` has no value. Our callback reads each as a C string,
/// so a decoded NUL ends it, and invalid UTF-8 is repaired.
enum MHDQuery {
    static func parse(_ query: [UInt8]) -> [QueryItem] {
        var items: [QueryItem] = []
        var rest = query[...]
        while !rest.isEmpty {
            let part = rest.prefix(while: { $0 != UInt8(ascii: "&") })
            rest = rest.dropFirst(part.count + 1)
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                items.append(
                    QueryItem(
                        name: text(unescape(Array(part[..<equals]), plus: true)),
                        value: text(unescape(Array(part[(equals + 1)...]), plus: true))))
            } else {
                items.append(QueryItem(name: text(unescape(Array(part), plus: true)), value: nil))
            }
        }
        return items
    }

    static func unescape(_ bytes: [UInt8], plus: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]),
                let low = hex(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plus && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return output
    }

    /// The bytes as our C-string reading sees them: cut at the first NUL, then UTF-8 repaired.
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
