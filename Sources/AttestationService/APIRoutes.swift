import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation
import HTTPServer
import LinkTokens
import Rendering

/// The JSON API of the personal page.
enum APIRoutes {
    /// What the personal page shows for a link: the person's first name, the form in force and
    /// its reasons, the link's defaults, and the server's bounds and clock.
    struct LinkInfo: Encodable {
        let firstName: String
        let displayName: String
        let form: FormInfo
        /// The version of the form in force now, for a link that follows the calendar.
        let version: VersionInfo?
        /// The link's default reasons as the form in force names them.
        let defaultReasons: [String]
        /// The link's default reasons the form in force has no counterpart for: the page asks.
        let missingReasons: [String]
        let lockReasons: Bool
        let timeZone: String
        let offsetBounds: OffsetBounds
        let expires: String?
        let serverTime: String
        /// A pinned link whose form is no longer in force: since when, and the page's notice;
        /// nil for a link that follows the calendar and for a form still in force.
        let pinnedFormOutdated: PinnedFormOutdated?
    }

    struct PinnedFormOutdated: Encodable {
        /// ISO 8601.
        let since: String
        let text: String

        init(_ outdated: OutdatedForm, form: Form) {
            since = iso8601(outdated.since)
            let day = LocalDateTime(outdated.since, in: .paris).frenchLong
            text =
                outdated.rulesEnded
                ? "Plus aucune attestation n’est demandée depuis le \(day)\u{A0}: ce lien imprime toujours le formulaire \(VisibleText.quoted(form.name))."
                : "Ce lien imprime toujours le formulaire \(VisibleText.quoted(form.name)), qui n’est plus en vigueur depuis le \(day)\u{A0}: pour le formulaire du moment, demandez à votre administrateur un lien qui suit le calendrier."
        }
    }

    /// A version of the calendar: since when, its contexts, the one shown, and the next change.
    struct VersionInfo: Encodable {
        struct Context: Encodable {
            /// `{"from": "19:00", "until": "06:00", "days": [6, 7]}`, as the form writes them.
            struct Hours: Encodable {
                let from: String
                let until: String
                let days: [Int]?
            }
            let id: String
            let name: String
            /// The hours it covers (nil: every hour); the page picks by them as the server does.
            let hours: Hours?
            /// « 19h-6h », « 6h-18h, samedi et dimanche ».
            let hoursText: String?
            /// Where it applies when not everywhere: there the person answers.
            let area: String?

            init(_ form: Form) {
                let inForce = form.inForce
                id = inForce?.context ?? form.id
                name = inForce?.contextName ?? form.name
                hours = inForce?.hours.map { hours in
                    func text(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
                    return Hours(from: text(hours.from), until: text(hours.until), days: hours.days?.sorted())
                }
                hoursText = inForce?.hours?.text
                area = inForce?.area
            }

            /// Every key written, `null` when there is none, as the page reads them.
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(id, forKey: .id)
                try c.encode(name, forKey: .name)
                try c.encode(hours, forKey: .hours)
                try c.encode(hoursText, forKey: .hoursText)
                try c.encode(area, forKey: .area)
            }

            private enum CodingKeys: String, CodingKey { case id, name, hours, hoursText, area }
        }
        /// ISO 8601.
        let start: String
        /// As a French sentence says it: "15 décembre 2020".
        let startText: String
        /// Empty for a version of one form.
        let contexts: [Context]
        /// The context of `form`; nil for a version of one form.
        let context: String?
        /// When the next version comes into force, ISO 8601; nil when none is scheduled.
        let nextChange: String?
        /// Past the end of the calendar: since when no attestation is asked, ISO 8601, and the
        /// page's notice; nil before.
        let ended: String?
        let endedText: String?

        init(_ inForce: FormInForce) {
            let version = inForce.version!
            start = iso8601(version.start)
            startText = LocalDateTime(version.start, in: .paris).frenchLong
            contexts =
                version.hasContexts
                ? version.forms.map(Context.init) : []
            context = version.hasContexts ? inForce.form.inForce?.context : nil
            nextChange = inForce.next.map { iso8601($0.start) }
            ended = inForce.ended.map(iso8601)
            let since = startText
            endedText = inForce.ended.map { end in
                "Plus aucune attestation n’est demandée depuis le \(LocalDateTime(end, in: .paris).frenchLong)\u{A0}: ce lien imprime encore la dernière version, en vigueur depuis le \(since)."
            }
        }

        /// `context` and `nextChange` written `null` when there is none, as the page reads them.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(start, forKey: .start)
            try c.encode(startText, forKey: .startText)
            try c.encode(contexts, forKey: .contexts)
            try c.encode(context, forKey: .context)
            try c.encode(nextChange, forKey: .nextChange)
            try c.encode(ended, forKey: .ended)
            try c.encode(endedText, forKey: .endedText)
        }

        private enum CodingKeys: String, CodingKey {
            case start, startText, contexts, context, nextChange, ended, endedText
        }
    }

    struct FormInfo: Encodable {
        let id: String
        let name: String
        let reasons: [ReasonInfo]
    }

    struct ReasonInfo: Encodable {
        let code: String
        let number: Int
        let shortLabel: String
        let label: String
        let note: String?
    }

    struct FormList: Encodable {
        let defaultForm: String
        let forms: [FormInfo]
    }

    static func link(_ request: HTTPRequest, snapshot: ServiceSnapshot, now: Date) throws(RouteError) -> HTTPResponse {
        let values = try QueryParameters.parse(request.query, accepted: ["t", "context"])
        let token = try QueryParameters.token(in: values)
        let state = snapshot.state
        let link: VerifiedLink
        let inForce: FormInForce
        do {
            link = try state.verify(token: token, now: now)
            inForce = try state.form(for: link, at: now, context: values["context"])
        } catch { throw RouteError(error) }
        let contents = link.contents
        let identity = contents.identity
        let info = LinkInfo(
            firstName: identity.firstName,
            displayName: "\(identity.firstName) \(identity.lastName.prefix(1)).",
            form: formInfo(inForce.form), version: inForce.version.map { _ in VersionInfo(inForce) },
            defaultReasons: inForce.reasons.codes, missingReasons: inForce.reasons.missing,
            lockReasons: contents.lockReasons,
            timeZone: link.timeZone.identifier, offsetBounds: state.bounds,
            expires: contents.expiresAt.map { iso8601($0) }, serverTime: iso8601(now),
            pinnedFormOutdated: link.pinnedForm.flatMap { form in
                state.calendar.outdated(form, at: now).map { PinnedFormOutdated($0, form: form) }
            })
        return HTTPResponse(
            status: 200, headers: Routes.privateHeaders + [("Content-Type", "application/json")], body: encode(info))
    }

    /// The offline template of a link (Rendering's `OfflineTemplate`), for the personal page to
    /// make attestations without the network: the PDF in base64, where each variable part
    /// goes, and the QR payload with the person's values written.
    struct TemplateInfo: Encodable {
        struct Span: Encodable {
            let offset: Int
            let length: Int
            init(_ range: Range<Int>) { (offset, length) = (range.lowerBound, range.count) }
        }
        struct Text: Encodable {
            let value: String
            let offset: Int
            let length: Int
        }
        struct Mark: Encodable {
            let code: String
            let offset: Int
        }
        struct QRImage: Encodable {
            let version: Int
            let modules: Int
            let scale: Int
            let bytesPerRow: Int
            let offset: Int
            let length: Int
        }
        struct Segment: Encodable {
            var text: String?
            var value: String?
        }
        let format = 1
        let formID: String
        /// The version the template prints, for a link that follows the calendar.
        let version: VersionInfo?
        /// The name as the PDF prints it, accents and all, for « Montrer à l’agent » (the
        /// payload's is folded to ASCII); the PDF beside it holds the whole identity anyway.
        let fullName: String
        let pdf: String
        /// Where each date and time is printed (`exitDate`, `exitTime`…), as PDF string bytes:
        /// `/` written `\057`.
        let texts: [Text]
        let creationDate: Span
        let marks: [Mark]
        /// For a form whose mark replaces the box: each reason's box text, `([ ]) Tj`, kept
        /// (`(`) for a reason not chosen, made a comment (`%`) otherwise; empty for other forms.
        let boxes: [Mark]
        let qr: QRImage
        let payload: [Segment]
        /// The reasons this link may print: all the form's, or the link's own when it locks them.
        let reasons: [String]
        let defaultReasons: [String]
        let missingReasons: [String]
        let lockReasons: Bool
        let timeZone: String
        let offsetBounds: OffsetBounds
        let expires: String?
        /// Until when the page may make attestations from it without the network: it cannot
        /// learn of a revocation offline, so a template it did not refresh for a week stops
        /// serving (fail closed); the link's expiry or the next change of form, when earlier.
        let offlineUntil: String
        let serverTime: String
    }

    /// How long a template serves offline after the server gave it.
    static let offlineValidity: TimeInterval = 7 * 24 * 3600

    static func template(
        _ request: HTTPRequest, snapshot: ServiceSnapshot, now: Date
    ) throws(RouteError)
        -> HTTPResponse
    {
        let values = try QueryParameters.parse(request.query, accepted: ["t", "context"])
        let token = try QueryParameters.token(in: values)
        let state = snapshot.state
        let link: VerifiedLink
        let inForce: FormInForce
        do {
            link = try state.verify(token: token, now: now)
            inForce = try state.form(for: link, at: now, context: values["context"])
        } catch { throw RouteError(error) }
        let form = inForce.form
        let template: OfflineTemplate
        do {
            template = try snapshot.renderer.offlineTemplate(
                identity: link.contents.identity, form: form, timeZone: link.timeZone,
                now: now)
        } catch {
            throw RouteError(
                status: 500,
                message: "erreur interne : \(error.description) Réessayez ou prévenez votre administrateur.",
                reason: "template_failed")
        }
        let contents = link.contents
        let info = TemplateInfo(
            formID: form.id, version: inForce.version.map { _ in VersionInfo(inForce) },
            fullName: contents.identity.fullName, pdf: Data(template.pdf).base64EncodedString(),
            texts: template.texts.map { .init(value: $0.value, offset: $0.range.lowerBound, length: $0.range.count) },
            creationDate: .init(template.creationDate),
            marks: template.marks.map { .init(code: $0.code, offset: $0.offset) },
            boxes: template.boxes.map { .init(code: $0.code, offset: $0.offset) },
            qr: .init(
                version: template.qrVersion, modules: template.qrModules, scale: template.qrScale,
                bytesPerRow: template.qrBytesPerRow, offset: template.qrImage.lowerBound, length: template.qrImage.count
            ),
            payload: template.payload.map { segment in
                switch segment {
                case .text(let text): TemplateInfo.Segment(text: text)
                case .value(let name): TemplateInfo.Segment(value: name)
                }
            },
            reasons: contents.lockReasons ? inForce.reasons.codes : form.reasons.map(\.code),
            defaultReasons: inForce.reasons.codes, missingReasons: inForce.reasons.missing,
            lockReasons: contents.lockReasons,
            timeZone: link.timeZone.identifier, offsetBounds: state.bounds,
            expires: contents.expiresAt.map { iso8601($0) },
            offlineUntil: iso8601(
                min(
                    now.addingTimeInterval(offlineValidity), contents.expiresAt ?? .distantFuture,
                    inForce.next?.start ?? .distantFuture)),
            serverTime: iso8601(now))
        return HTTPResponse(
            status: 200, headers: Routes.privateHeaders + [("Content-Type", "application/json")], body: encode(info))
    }

    /// A web app manifest of one person: installed on the home screen, the icon opens their page
    /// (`start_url` `/?t=…`), under their first name, as its own app (`id`), so two people on one
    /// phone get two icons. The site's own `manifest.webmanifest` opens `/`.
    struct PersonalManifest: Encodable {
        struct Icon: Encodable {
            let src: String
            let sizes: String
            let type: String
            let purpose: String
        }
        let name: String
        let shortName: String
        let description = "Votre attestation de déplacement dérogatoire, même sans réseau."
        let lang = "fr"
        let dir = "ltr"
        let id: String
        let startURL: String
        let scope = "/"
        let display = "standalone"
        let orientation = "portrait"
        let backgroundColor = "#f6f6f6"
        let themeColor = "#000091"
        enum CodingKeys: String, CodingKey {
            case name, description, lang, dir, id, scope, display, orientation, icons
            case shortName = "short_name"
            case startURL = "start_url"
            case backgroundColor = "background_color"
            case themeColor = "theme_color"
        }
        let icons = [
            Icon(src: "/icone.svg", sizes: "any", type: "image/svg+xml", purpose: "any"),
            Icon(src: "/icones/icone-192.png", sizes: "192x192", type: "image/png", purpose: "any"),
            Icon(src: "/icones/icone-512.png", sizes: "512x512", type: "image/png", purpose: "any"),
            Icon(src: "/icones/icone-masquable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable"),
        ]
    }

    static func manifest(
        _ request: HTTPRequest, snapshot: ServiceSnapshot, now: Date
    ) throws(RouteError)
        -> HTTPResponse
    {
        let values = try QueryParameters.parse(request.query, accepted: ["t"])
        let token = try QueryParameters.token(in: values)
        let link: VerifiedLink
        do { link = try snapshot.state.verify(token: token, now: now) } catch { throw RouteError(error) }
        let first = link.contents.identity.firstName
        let page = "/?t=" + token
        let manifest = PersonalManifest(name: "Attestation – \(first)", shortName: first, id: page, startURL: page)
        return HTTPResponse(
            status: 200, headers: Routes.privateHeaders + [("Content-Type", "application/manifest+json")],
            body: encode(manifest))
    }

    static func forms(_ request: HTTPRequest, snapshot: ServiceSnapshot) throws(RouteError) -> HTTPResponse {
        _ = try QueryParameters.parse(request.query, accepted: [])
        let catalog = snapshot.state.catalog
        let list = FormList(defaultForm: catalog.defaultFormID, forms: catalog.forms.map(formInfo))
        return HTTPResponse(
            status: 200,
            headers: Routes.commonHeaders + [
                ("Content-Type", "application/json"), ("Cache-Control", "public, max-age=300"),
            ],
            body: encode(list))
    }

    private static func formInfo(_ form: Form) -> FormInfo {
        FormInfo(
            id: form.id, name: form.name,
            reasons: form.reasons.map {
                ReasonInfo(
                    code: $0.code, number: $0.number, shortLabel: $0.shortLabel ?? $0.code, label: $0.label,
                    note: $0.note)
            })
    }

    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(((try? encoder.encode(value)) ?? Data("{}".utf8)) + Data("\n".utf8))
    }

    fileprivate static func iso8601(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
