// `make bench`: how long one attestation takes to render, median over thousands of runs.
// swift-benchmark reports the median ("time") and the spread; sizes are printed first.
//
// `attestation-bench loop WHAT COUNT` renders COUNT times (after one more) and nothing else, for
// `valgrind --tool=callgrind`, whose instruction counts repeat on a noisy machine where times do
// not: (Ir of COUNT − Ir of 0) / COUNT is the cost of one render. WHAT is pdf-2020-11-28,
// pdf-2020-11-02, pdf-unicode, png (the QR code alone), page1-png or page2-png (the pages as
// images at 150 dpi).
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

let loops: [String: () throws -> Void] = [
    "pdf-2020-11-28": { _ = try renderer.pdf(latin1) },
    "pdf-2020-11-02": { _ = try renderer.pdf(older) },
    "pdf-unicode": { _ = try renderer.pdf(unicode) },
    "png": { _ = try renderer.qrPNG(latin1) },
    "page1-png": { _ = try renderer.pagePNG(latin1, page: 1) },
    "page2-png": { _ = try renderer.pagePNG(latin1, page: 2) },
]
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "loop" {
    guard arguments.count == 3, let render = loops[arguments[arguments.startIndex + 1]],
        let count = Int(arguments[arguments.startIndex + 2]), count >= 0
    else {
        print("usage: attestation-bench loop \(loops.keys.sorted().joined(separator: "|")) COUNT")
        exit(64)
    }
    // One render first, whatever COUNT: what a renderer prepares once (the Unicode font,
    // read on first need) is then outside the difference between two counts.
    for _ in 0...count { try render() }
    exit(0)
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
