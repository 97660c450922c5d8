import AttestationKit
import Foundation

/// The versions of the form one after another, each from the instant it came into force: the
/// form a link that follows the rules prints for an exit instant. The official calendar is made
/// of the forms' own `inForce`; an administrator replaces it with a schedule of their own, and a
/// form added with its `inForce` joins either, at its start.
public struct FormCalendar: Sendable {
    /// One version: the forms in force from `start`, one per context (curfew, weekend…), or one.
    public struct Version: Sendable, Hashable {
        public let start: Date
        /// In the order the person is offered them; the first is the default context.
        public let forms: [Form]

        /// Whether the person chooses among several contexts.
        public var hasContexts: Bool { forms.count > 1 }

        /// The form of `context`, or of the first context when nil; nil for a context this
        /// version does not have.
        public func form(context: String?) -> Form? {
            guard let context else { return forms[0] }
            return forms.first { $0.inForce?.context == context }
        }

        /// The context ids, in order (empty for a version of one form without context).
        public var contexts: [String] { forms.compactMap(\.inForce?.context) }

        /// The form a link prints at `instant` when the request names no context: `preferred`
        /// (the link's own default) where its hours cover the instant, else the first whose
        /// hours cover it, else, at an hour none covers, `preferred` or the one whose hours come
        /// next. A context without hours covers every hour.
        public func defaultForm(at instant: Date, preferring preferred: String? = nil) -> Form {
            guard hasContexts else { return forms[0] }
            let covering = forms.filter { $0.inForce?.hours?.covers(instant) ?? true }
            if let preferred, let form = covering.first(where: { $0.inForce?.context == preferred }) { return form }
            if let form = covering.first { return form }
            if let preferred, let form = form(context: preferred) { return form }
            let next = forms.compactMap { form in form.inForce?.hours?.nextStart(after: instant).map { (form, $0) } }
            return next.min { $0.1 < $1.1 }?.0 ?? forms[0]
        }
    }

    /// One line of an administrator's schedule: from `start`, these forms (or documents with
    /// contexts, by their id).
    public struct Entry: Sendable, Hashable {
        public let start: Date
        public let forms: [String]

        public init(start: Date, forms: [String]) { (self.start, self.forms) = (start, forms) }

        /// `2020-12-15T20:00`, Paris time, as `inForce.from` is written; nil when malformed.
        public static func start(parsing text: String) -> Date? { FormBuilder.parisInstant(text) }
    }

    /// In order of their start, each start once.
    public let versions: [Version]
    /// Each version's reasons and the codes they continue, by start: a code means what its
    /// version says (`achats` of October 2020 is not `achats` of March 2021), so continuations
    /// are followed back in time only.
    private let lineage: [(start: Date, code: String, continues: [String])]

    /// The calendar of `catalog`: the official one (every form with an `inForce`), or the
    /// administrator's `schedule` plus the forms added to the built-in ones that carry their
    /// own `inForce`. A version of several forms needs a distinct context for each.
    public init(catalog: FormCatalog, schedule: [Entry]? = nil) throws(CalendarError) {
        var starts: [(start: Date, form: Form, path: String)] = []
        if let schedule {
            // Each form under its id, and a form of a document with contexts under the document's
            // id too (`deplacement-2021-03-17` for both of its contexts).
            var formsNamed: [String: [Form]] = [:]
            for form in catalog.forms {
                formsNamed[form.id, default: []].append(form)
                if let context = form.inForce?.context, form.id.hasSuffix("-\(context)") {
                    formsNamed[String(form.id.dropLast(context.count + 1)), default: []].append(form)
                }
            }
            for (index, entry) in schedule.enumerated() {
                guard !entry.forms.isEmpty else {
                    throw CalendarError(
                        path: "calendar[\(index)].forms", message: "au moins un formulaire est attendu.")
                }
                for (position, name) in entry.forms.enumerated() {
                    let matching = formsNamed[name] ?? []
                    guard !matching.isEmpty else {
                        throw CalendarError(
                            path: "calendar[\(index)].forms[\(position)]",
                            message:
                                "formulaire « \(name) » inconnu ; un id de attestation-admin forms est attendu (ou celui d’un formulaire à contextes)."
                        )
                    }
                    starts += matching.map { (entry.start, $0, "calendar[\(index)].forms[\(position)]") }
                }
            }
            for form in catalog.forms where FormCatalog.builtIn.anyForm(id: form.id) != form {
                if let start = form.inForce?.start { starts.append((start, form, "formulaire \(form.id)")) }
            }
        } else {
            for form in catalog.forms {
                if let start = form.inForce?.start { starts.append((start, form, "formulaire \(form.id)")) }
            }
        }
        // An added form takes the place of a built-in one of the same start and context: a
        // version corrected by the administrator (a copy of the built-in with its own id).
        // Grouped and looked up by start rather than searched for each entry: a `calendar` of
        // 16,000 entries took 15 s to check and 25 s to reload, a revocation waiting behind it
        // (issue 38).
        let isBuiltIn = { (form: Form) in FormCatalog.builtIn.anyForm(id: form.id) == form }
        struct Slot: Hashable {
            let start: Date
            let context: String?
        }
        let added = Set(
            starts.filter { !isBuiltIn($0.form) }.map { Slot(start: $0.start, context: $0.form.inForce?.context) })
        if !added.isEmpty {
            starts.removeAll {
                isBuiltIn($0.form) && added.contains(Slot(start: $0.start, context: $0.form.inForce?.context))
            }
        }
        let byStart = Dictionary(grouping: starts, by: \.start)
        var versions: [Version] = []
        for start in byStart.keys.sorted() {
            let entries = byStart[start]!
            let forms = entries.map(\.form)
            if forms.count > 1 {
                var contexts: [String: Int] = [:]
                var ids: [String: Int] = [:]
                for form in forms {
                    ids[form.id, default: 0] += 1
                    if let context = form.inForce?.context { contexts[context, default: 0] += 1 }
                }
                for (entry, form) in zip(entries, forms) {
                    // The same form twice at one instant (a schedule that names it twice): said,
                    // not a crash looking for the other form.
                    guard ids[form.id] == 1 else {
                        throw CalendarError(
                            path: entry.path,
                            message: "« \(form.id) » est donné deux fois au même instant ; une fois suffit.")
                    }
                    guard let context = form.inForce?.context else {
                        throw CalendarError(
                            path: entry.path,
                            message:
                                "« \(form.id) » est en vigueur au même instant que « \(forms.first { $0 != form }!.id) » sans contexte qui les distingue ; donnez à chacun un inForce.context."
                        )
                    }
                    guard contexts[context] == 1 else {
                        throw CalendarError(
                            path: entry.path,
                            message:
                                "deux formulaires en vigueur au même instant ont le contexte « \(context) » ; un contexte par formulaire est attendu."
                        )
                    }
                }
            }
            versions.append(Version(start: start, forms: forms))
        }
        guard !versions.isEmpty else {
            throw CalendarError(
                path: "calendar",
                message:
                    "calendrier vide ; au moins une entrée est attendue (ou retirez la clé pour le calendrier officiel)."
            )
        }
        self.versions = versions
        lineage = versions.flatMap { version in
            version.forms.flatMap { form in
                form.printedReasons.map { (version.start, $0.code, $0.continues) }
            }
        }
    }

    /// The version in force at `instant`: the last started by then; before the first, the first
    /// (nothing older is known); past the last, the last stays. Nil for an empty calendar.
    public func version(at instant: Date) -> Version? {
        versions.last { $0.start <= instant } ?? versions.first
    }

    /// When no attestation was asked any more: the `inForce.until` of the last version's forms
    /// (20 June 2021, 6h, in the official calendar); nil when the last version has none. A link
    /// opened later still prints the last version, and says so.
    public var end: Date? { versions.last?.forms.compactMap(\.inForce?.until).min() }

    /// The next version after `instant`, if one is scheduled.
    public func version(after instant: Date) -> Version? {
        versions.first { $0.start > instant }
    }

    /// Every reason code the calendar's forms know, in the order met.
    public var reasonCodes: [String] {
        var seen = Set<String>()
        return versions.flatMap { $0.forms.flatMap(\.reasons) }.map(\.code).filter { seen.insert($0).inserted }
    }

    /// A link's reasons as `form` names them: each code itself, or the one reason of `form` that
    /// continues it (directly or through the versions between). A code with no such reason, or
    /// with several, is `missing`: never replaced by a guess. Continuing is one way: a newer,
    /// wider reason (`sport_animaux`) never becomes an older, narrower one (`animaux`).
    public func carryOver(_ codes: [String], into form: Form) -> CarriedReasons {
        var carried: [String] = []
        var missing: [String] = []
        for code in codes {
            let start = form.inForce?.start ?? .distantFuture
            let matches = form.reasons.filter { reason in
                reason.code == code || ancestors(of: reason.continues, before: start).contains(code)
            }
            if let exact = matches.first(where: { $0.code == code }) ?? (matches.count == 1 ? matches[0] : nil) {
                if !carried.contains(exact.code) { carried.append(exact.code) }
            } else {
                missing.append(code)
            }
        }
        return CarriedReasons(codes: carried, missing: missing)
    }

    /// `codes` and every code they continue, through the versions before `start`.
    private func ancestors(of codes: [String], before start: Date) -> Set<String> {
        var found = Set(codes)
        for code in codes {
            for earlier in lineage where earlier.start < start && earlier.code == code {
                found.formUnion(ancestors(of: earlier.continues, before: earlier.start))
            }
        }
        return found
    }
}

/// A link's reasons carried into a version: the codes of that version, and those of the link
/// that have no counterpart there.
public struct CarriedReasons: Sendable, Hashable {
    public let codes: [String]
    public let missing: [String]

    public init(codes: [String], missing: [String]) { (self.codes, self.missing) = (codes, missing) }
}

/// A schedule that cannot be used; `path` is in the configuration (`calendar[2].forms[0]`).
public struct CalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public var description: String { "\(path) : \(message)" }
}
