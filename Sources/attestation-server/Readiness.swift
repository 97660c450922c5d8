import Foundation
import Logging

/// How the server says it is ready, for people and for programs: one JSON line on standard
/// output, the only thing the server ever writes there (`{"event":"listening",…}`, with the port
/// the system chose under `--port 0`), and a log record `listening`. Scripts and tests read the
/// JSON line; nothing parses the log's prose.
struct Readiness: Encodable {
    let event = "listening"
    let url: String
    let host: String
    let port: Int
    let pid: Int32

    init(scheme: String, host: String, port: Int) {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        url = "\(scheme)://\(shownHost):\(port)/"
        self.host = host
        self.port = port
        pid = getpid()
    }

    func announce(logger: Logger) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
        // Written at once: standard output may be a file or a pipe, buffered otherwise.
        FileHandle.standardOutput.write(line)
        logger.notice("listening", metadata: ["url": .string(url)])
    }
}
