import Foundation

/// One fuzz target: a name for the command line and a function of the input bytes that traps
/// (a crash for libFuzzer) when a property of the code under test does not hold.
struct FuzzTarget: Sendable {
    let name: String
    let summary: String
    let run: @Sendable ([UInt8]) -> Void

    static let all = [
        FuzzTarget(
            name: "link-token", summary: "jetons de lien, charge utile signée ici, liste de révocation, base64url",
            run: LinkTokenTarget.run),
        FuzzTarget(
            name: "query", summary: "requêtes au service réel : chemin, paramètres, en-têtes",
            run: QueryTarget.run),
        FuzzTarget(
            name: "form-json", summary: "définitions de formulaire en JSON, puis leur dessin",
            run: FormJSONTarget.run),
        FuzzTarget(
            name: "font-file", summary: "police TrueType déposée à côté d’un formulaire, puis son dessin",
            run: FormFileTarget.runFont),
        FuzzTarget(
            name: "png-picture", summary: "image PNG déposée à côté d’un formulaire, puis son dessin",
            run: FormFileTarget.runPicture),
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The target of this run: the first argument. A global rather than a capture, because
    /// libFuzzer calls back through a C function pointer.
    static let selected: FuzzTarget = {
        let arguments = CommandLine.arguments
        guard arguments.count > 1, let target = named(arguments[1]) else {
            fatalError("attestation-fuzz : cible absente ou inconnue")
        }
        return target
    }()

    /// libFuzzer's callback: one input, run through the selected target.
    static let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        selected.run(bytes)
        return 0
    }
}
