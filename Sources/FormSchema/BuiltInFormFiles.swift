import Foundation

/// The files the built-in forms name (`fonts[].file`, `images[].file`): Luciole and the logos of
/// the Ministry's generator of April–June 2021, compiled in from `Files/` by the EmbedFiles
/// plugin, so the binaries need no file beside them. Luciole is under CC BY 4.0 (its credit is
/// in the licences, `/licenses`); the logos come from the generator's repository (MIT).
enum BuiltInFormFiles {
    /// Every file, decoded once.
    static let files: [String: [UInt8]] = Dictionary(
        uniqueKeysWithValues: EmbeddedFiles.base64.keys.filter { $0.hasPrefix("Files/") }.map {
            (String($0.dropFirst("Files/".count)), EmbeddedFiles.required($0))
        })

    static func bytes(named name: String) -> [UInt8]? { files[name] }
}

/// Where the files a form names are read: beside an added form's JSON (else among the built-in
/// files, so that a copy of a built-in form needs no copy of its fonts), or among the built-in
/// files for a built-in form.
enum FormFiles: Sendable {
    case directory(URL)
    case builtIn

    var isBuiltIn: Bool {
        if case .builtIn = self { return true }
        return false
    }

    /// The file's bytes, at most `limit`, where they were read, and whether they are built in.
    func read(_ name: String, limit: Int) throws(FileProblem) -> (bytes: [UInt8], path: String, isBuiltIn: Bool) {
        switch self {
        case .builtIn:
            guard let bytes = BuiltInFormFiles.bytes(named: name) else {
                throw FileProblem(reason: "fichier intégré inconnu (\(name))")
            }
            return (bytes, "built-in:\(name)", true)
        case .directory(let directory):
            let path = directory.appendingPathComponent(name).path
            if !FileManager.default.fileExists(atPath: path), let bytes = BuiltInFormFiles.bytes(named: name) {
                return (bytes, "built-in:\(name)", true)
            }
            // A regular file of a bounded size, checked before reading: not a FIFO, not a device.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { throw FileProblem(reason: "fichier illisible ou absent (\(path))") }
            guard (attributes[.size] as? Int ?? Int.max) <= limit else {
                throw FileProblem(
                    reason: limit >= 1 << 20
                        ? "fichier de plus de \(limit >> 20) Mio" : "fichier de plus de \(limit >> 10) Kio")
            }
            guard let data = FileManager.default.contents(atPath: path), data.count <= limit else {
                throw FileProblem(reason: "fichier illisible ou absent (\(path))")
            }
            return ([UInt8](data), path, false)
        }
    }

    /// Why a file cannot be used, in French.
    struct FileProblem: Error, Sendable {
        let reason: String
    }
}
