// `make bench`: how long one attestation takes to render, median over thousands of runs.
// swift-benchmark reports the median ("time") and the spread; sizes are printed first.
//
// `attestation-bench loop WHAT COUNT` renders COUNT times (after one more) and nothing else, for
// `valgrind --tool=callgrind`, whose instruction counts repeat on a noisy machine where times do
// not: (Ir of COUNT − Ir of 0) / COUNT is the cost of one render. `attestation-bench measure
// COUNT WHAT…` does the same for several WHATs in one process: for each, one render, then COUNT
// renders inside `attestation_bench_measured`, for callgrind's --toggle-collect and --dump-after
// (Benchmarks/callgrind-per-render: one dump per WHAT, in the order it prints them). WHAT is
// pdf-FORM, paper-FORM (the paper attestation), template-FORM (the offline template) or
// page1-png-FORM (page 1 as an image at 150 dpi), for every built-in FORM
// (deplacement-2021-06-10…), or pdf-2020-11-28, pdf-2020-11-02, pdf-unicode, png (the QR code
// alone), page1-png or page2-png; `attestation-bench whats` lists them.
import AttestationKit
import Benchmark
import FormSchema
import Foundation
import LinkTokens
import Rendering

let catalog = FormCatalog.builtIn
let renderer = try AttestationRenderer(forms: catalog.forms)
let now = Date()
let today = LocalDateTime(now, in: .paris).date

func attestation(firstName: String, lastName: String, form: Form, reasons: [String]) throws -> Attestation {
    let identity = try Identity(
        firstName: firstName, lastName: lastName, birthDate: "01/01/1970", birthPlace: "Lyon",
        address: "999 avenue de France", zipCode: "75001", city: "Paris", today: today)
    return try Attestation(identity: identity, form: form, reasonCodes: reasons, exit: .offset(minutes: -20), now: now)
}

let latin1 = try attestation(firstName: "Camille", lastName: "Dupont", form: catalog.defaultForm, reasons: ["travail"])
let older = try attestation(
    firstName: "François", lastName: "Lefèvre", form: catalog.form(id: "deplacement-2020-11-02")!,
    reasons: ["achats", "sport_animaux"])
let unicode = try attestation(firstName: "Łukasz", lastName: "Wałęsa", form: catalog.defaultForm, reasons: ["sante"])

// Every built-in version, as a link prints it: a Latin-1 person and the version's `travail`
// (or its first reason), in catalog order.
let versions: [(form: Form, attestation: Attestation)] = try catalog.forms.map { form in
    let reason = form.reason(code: "travail")?.code ?? form.reasons[0].code
    return (form, try attestation(firstName: "Camille", lastName: "Dupont", form: form, reasons: [reason]))
}

var loops: [(what: String, render: () throws -> Void)] = [
    ("pdf-2020-11-28", { _ = try renderer.pdf(latin1) }),
    ("pdf-2020-11-02", { _ = try renderer.pdf(older) }),
    ("pdf-unicode", { _ = try renderer.pdf(unicode) }),
    ("png", { _ = try renderer.qrPNG(latin1) }),
    ("page1-png", { _ = try renderer.pagePNG(latin1, page: 1) }),
    ("page2-png", { _ = try renderer.pagePNG(latin1, page: 2) }),
]
// What the server's routes call for a link of each version: /attestation.pdf, the paper PDF of
// /attestation-papier.pdf, the offline template of /api/v1/template, page 1 of /attestation.png.
for (form, version) in versions {
    let paper = PaperAttestation(identity: version.identity, form: form)
    loops += [
        ("pdf-\(form.id)", { _ = try renderer.pdf(version) }),
        ("paper-\(form.id)", { _ = try renderer.paperPDF([paper]) }),
        (
            "template-\(form.id)",
            {
                _ = try renderer.offlineTemplate(identity: version.identity, form: form, timeZone: .paris, now: now)
            }
        ),
        ("page1-png-\(form.id)", { _ = try renderer.pagePNG(version, page: 1) }),
    ]
}
let renders = Dictionary(loops.map { ($0.what, $0.render) }, uniquingKeysWith: { first, _ in first })

/// The render `measured` repeats. A global rather than an argument: given a closure, the
/// optimizer calls a specialized copy under another name, which callgrind would not see.
nonisolated(unsafe) var measuredRender: () throws -> Void = {}

/// COUNT renders and nothing else, under a name of its own (not mangled, never inlined nor
/// specialized) for callgrind: `--toggle-collect=attestation_bench_measured` counts only what runs
/// inside it, `--dump-after=attestation_bench_measured` writes those counts after each call.
@_silgen_name("attestation_bench_measured") @inline(never) @_optimize(none)
func measured(_ count: Int) throws {
    for _ in 0..<count { try measuredRender() }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: attestation-bench [--filter REGEX]        swift-benchmark's medians
           attestation-bench loop WHAT COUNT          1 + COUNT renders, for callgrind
           attestation-bench measure COUNT WHAT…      for each WHAT: 1 render, then COUNT measured ones
           attestation-bench whats                    every WHAT
    """
switch arguments.first {
case "whats":
    for loop in loops { print(loop.what) }
    exit(0)
case "loop":
    guard arguments.count == 3, let render = renders[arguments[1]], let count = Int(arguments[2]), count >= 0 else {
        print(usage)
        exit(64)
    }
    // One render first, whatever COUNT: what a renderer prepares once (the Unicode font,
    // read on first need) is then outside the difference between two counts.
    for _ in 0...count { try render() }
    exit(0)
case "measure":
    guard arguments.count >= 3, let count = Int(arguments[1]), count >= 1,
        arguments.dropFirst(2).allSatisfy({ renders[$0] != nil })
    else {
        print(usage)
        exit(64)
    }
    for what in arguments.dropFirst(2) {
        let render = renders[what]!
        // The first render of each WHAT outside: what is prepared on first need (a form's
        // fonts or pictures, the Unicode font) is not a render's cost.
        try render()
        measuredRender = render
        try measured(count)
        print(what)
    }
    exit(0)
default:
    break
}

print("PDF size, Latin-1 person (2020-11-28): \(try renderer.pdf(latin1).count) bytes")
print("PDF size, Latin-1 person (2020-11-02): \(try renderer.pdf(older).count) bytes")
print("PDF size, name outside WinAnsi (DejaVu Sans embedded): \(try renderer.pdf(unicode).count) bytes")
print("PNG size, 400 px: \(try renderer.qrPNG(latin1).count) bytes")
for formID in ["deplacement-2020-11-28", "deplacement-2020-11-02"] {
    let person = formID == latin1.form.id ? latin1 : older
    for page in 1...2 {
        print("Page \(page) PNG size, 150 dpi (\(formID)): \(try renderer.pagePNG(person, page: page).count) bytes")
    }
}
for (form, version) in versions { print("PDF size, \(form.id): \(try renderer.pdf(version).count) bytes") }
print()

let signingKey = try SigningKey.generate(id: "k1")
let keyRing = try KeyRing([signingKey.verificationKey])
let revoked = RevocationList(ids: Set((0..<1000).map { _ in LinkID.random() }))
let token = try LinkToken.sign(
    LinkContents(formID: latin1.form.id, identity: latin1.identity, reasons: ["travail"]), with: signingKey)
print(
    "Token: \(token.count) characters; whole link: \("https://attestation.example.org/attestation.pdf?t=".count + token.count)"
)
print()

let runs = Iterations(2000)
let warmup = WarmupIterations(50)
benchmark("pdf, Latin-1, 2020-11-28", settings: runs, warmup) { _ = try renderer.pdf(latin1) }
benchmark("pdf, Latin-1, 2020-11-02", settings: runs, warmup) { _ = try renderer.pdf(older) }
benchmark("pdf, Unicode name (embedded font)", settings: runs, warmup) { _ = try renderer.pdf(unicode) }
benchmark("png, 400 px", settings: runs, warmup) { _ = try renderer.qrPNG(latin1) }
// Tens of milliseconds each: fewer runs, for a median in the same few seconds.
let pageRuns = Iterations(200)
benchmark("page 1 png, 150 dpi, 2020-11-28", settings: pageRuns, warmup) { _ = try renderer.pagePNG(latin1, page: 1) }
benchmark("page 2 png, 150 dpi, 2020-11-28", settings: pageRuns, warmup) { _ = try renderer.pagePNG(latin1, page: 2) }
benchmark("page 1 png, 150 dpi, 2020-11-02", settings: pageRuns, warmup) { _ = try renderer.pagePNG(older, page: 1) }
// Every built-in version's PDF, as its links print it: tens of milliseconds for the drawn
// versions of 2021 before they were prepared at load like those of 2020, so 50 runs each.
let versionRuns = Iterations(50)
for (form, version) in versions {
    benchmark("pdf, \(form.id)", settings: versionRuns, WarmupIterations(2)) { _ = try renderer.pdf(version) }
}
benchmark("qr payload", settings: runs, warmup) { _ = QRPayload(latin1) }
benchmark("attestation (validate + resolve time)", settings: runs, warmup) {
    _ = try attestation(firstName: "Camille", lastName: "Dupont", form: catalog.defaultForm, reasons: ["travail"])
}

benchmark("link verification (Ed25519, 1,000 revoked ids)", settings: runs, warmup) {
    guard case .valid = LinkToken.verify(token, keys: keyRing, revoked: revoked) else { fatalError("token refused") }
}
benchmark("link signing", settings: runs, warmup) {
    _ = try LinkToken.sign(
        LinkContents(formID: latin1.form.id, identity: latin1.identity, reasons: ["travail"]), with: signingKey)
}

Benchmark.main()
