import CHaru
import FormSchema
import Foundation
import Synchronization

/// The built-in forms' fonts as files cairo can open, for the page images (the PDF embeds them
/// from their bytes, `PreparedFont`): each an anonymous file in
/// memory (memfd), written once and kept for the process's lifetime, named by
/// `/proc/self/fd/N`. No file on disk: nothing to install beside the binaries, and nothing that
/// can vanish or be replaced under a running server.
enum BuiltInFontFiles {
    private static let paths = Mutex<[String: String]>([:])

    /// The path of `file`'s bytes: its own for a font beside a form, an in-memory file for a
    /// built-in one.
    static func path(of file: FontFile) throws(RenderingError) -> String {
        guard let bytes = file.builtInBytes else { return file.path }
        return try paths.withLock { (paths: inout [String: String]) throws(RenderingError) -> String in
            if let path = paths[file.fileName] { return path }
            let descriptor = charu_memory_file(file.fileName)
            guard descriptor >= 0 else { throw .pdfCallFailed("memfd_create") }
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else {
                close(descriptor)
                throw .pdfCallFailed("write")
            }
            let path = "/proc/self/fd/\(descriptor)"
            paths[file.fileName] = path
            return path
        }
    }
}
