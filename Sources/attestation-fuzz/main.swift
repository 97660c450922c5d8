import Foundation

// attestation-fuzz: the fuzz targets of the hardening suite (scripts/stress/fuzz.sh runs them).
//
// Built plainly (`swift build`), it replays corpus files through a target: the crash files
// libFuzzer writes, or the seed corpus, so any build checks them. Built by scripts/stress/fuzz.sh with
// coverage, the address sanitizer, libFuzzer's no-main runtime and -DFUZZING, it hands its
// arguments to libFuzzer's driver; libFuzzer's own `main` is not linked, so this one stays.
#if FUZZING
    import CLibFuzzer
#endif

let usage = """
    usage : attestation-fuzz CIBLE [FICHIER|DOSSIER…] [-option=valeur…]
            attestation-fuzz write-seeds DOSSIER
            attestation-fuzz --list

    Cibles :
    \(FuzzTarget.all.map { "  \($0.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \($0.summary)" }.joined(separator: "\n"))

    Construit sans libFuzzer, rejoue les fichiers donnés (un dossier : chacun de ses fichiers)
    et ignore les options. Construit par scripts/stress/fuzz.sh, passe le reste à libFuzzer.
    write-seeds écrit dans DOSSIER/CIBLE/ les graines calculées (jetons signés par la clé de test).

    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("attestation-fuzz : \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}

switch command {
case "-h", "--help":
    print(usage, terminator: "")
    exit(0)
case "--list":
    print(FuzzTarget.all.map(\.name).joined(separator: "\n"))
    exit(0)
case "write-seeds":
    guard arguments.count == 2 else { fail("write-seeds : un dossier attendu.", status: 64) }
    do {
        let count = try Seeds.write(to: URL(fileURLWithPath: arguments[1]))
        print("attestation-fuzz : \(count) graines écrites dans \(arguments[1]).")
        exit(0)
    } catch {
        fail("write-seeds : \(error)", status: 73)
    }
default:
    guard FuzzTarget.named(command) != nil else {
        fail(
            "cible inconnue « \(command) » ; cibles : \(FuzzTarget.all.map(\.name).joined(separator: ", ")).",
            status: 64)
    }
}

#if FUZZING
    // libFuzzer reads argv[0] (to re-run itself for -jobs/-fork) then its options and corpus
    // directories: the target's name is taken out. The strings live until exit.
    var fuzzerArguments: [UnsafeMutablePointer<CChar>?] =
        ([CommandLine.arguments[0]] + arguments.dropFirst()).map { strdup($0) } + [nil]
    var fuzzerArgumentCount = Int32(fuzzerArguments.count - 1)
    let status = fuzzerArguments.withUnsafeMutableBufferPointer { buffer in
        var argv = buffer.baseAddress
        return LLVMFuzzerRunDriver(&fuzzerArgumentCount, &argv, FuzzTarget.callback)
    }
    exit(status)
#else
    let target = FuzzTarget.selected
    let paths = arguments.dropFirst().filter { !$0.hasPrefix("-") }
    if paths.count < arguments.count - 1 {
        FileHandle.standardError.write(Data("attestation-fuzz : construit sans libFuzzer, options ignorées.\n".utf8))
    }
    guard !paths.isEmpty else { fail("aucun fichier à rejouer ; donnez des fichiers ou des dossiers.", status: 64) }

    var files: [URL] = []
    for path in paths {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            fail("\(path) introuvable.", status: 66)
        }
        if isDirectory.boolValue {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                fail("\(path) illisible.", status: 66)
            }
            files += names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }.filter {
                (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            }
        } else {
            files.append(url)
        }
    }
    for file in files {
        guard let data = try? Data(contentsOf: file) else { fail("\(file.path) illisible.", status: 66) }
        target.run([UInt8](data))
    }
    print("attestation-fuzz : \(target.name) : \(files.count) fichiers rejoués sans erreur.")
#endif
