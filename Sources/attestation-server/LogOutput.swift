import AttestationConfiguration
import Foundation
import Logging
import Synchronization

/// A swift-log handler writing each record whole to standard error, in one `write`, so lines
/// from libmicrohttpd's worker threads never interleave: `text` for people, one line each with
/// the metadata as `key=value`; `json` for log collectors, one JSON object a line.
///
/// Written here rather than taken from swift-log, whose only handler (`StreamLogHandler`) writes
/// text with the metadata in no fixed order and has no JSON form.
struct ServerLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let label: String
    let format: LogFormat

    init(label: String, level: Logger.Level, format: LogFormat) {
        self.label = label
        self.logLevel = level
        self.format = format
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// UTC with milliseconds: `2026-11-23T12:50:40.123Z`.
    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The keys of a request's line, in the order people read them; others follow sorted.
    static let leadingKeys = ["request_id", "method", "route", "status", "duration_ms", "bytes"]

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let time = Date().formatted(Self.timeFormat)
        let line =
            switch format {
            case .text: Self.text(time: time, level: event.level, message: "\(event.message)", metadata: merged)
            case .json: Self.json(time: time, level: event.level, message: "\(event.message)", metadata: merged)
            }
        StandardError.write(line + "\n")
    }

    static func orderedKeys(_ metadata: Logger.Metadata) -> [String] {
        let leading = leadingKeys.filter { metadata[$0] != nil }
        return leading + metadata.keys.filter { !leadingKeys.contains($0) }.sorted()
    }

    static func text(time: String, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = "\(time) \(level) \(message)"
        for key in orderedKeys(metadata) {
            let value = "\(metadata[key]!)"
            let quoted =
                value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline })
            line += " \(key)=" + (quoted ? jsonString(value) : value)
        }
        return line
    }

    static func json(time: String, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var fields = [
            "\"time\":\(jsonString(time))", "\"level\":\(jsonString(level.rawValue))",
            "\"message\":\(jsonString(message))",
        ]
        for key in orderedKeys(metadata) where !["time", "level", "message"].contains(key) {
            fields.append("\(jsonString(key)):\(jsonValue(metadata[key]!))")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Integers and decimals given as such stay numbers; everything else is a string.
    static func jsonValue(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text): return jsonString(text)
        case .stringConvertible(let convertible):
            if convertible is any BinaryInteger || convertible is Double { return "\(convertible)" }
            return jsonString("\(convertible)")
        case .array(let values): return "[" + values.map(jsonValue).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{"
                + entries.keys.sorted().map { "\(jsonString($0)):\(jsonValue(entries[$0]!))" }.joined(separator: ",")
                + "}"
        }
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Standard error, written a line at a time under a lock.
enum StandardError {
    private static let lock = Mutex(())

    static func write(_ text: String) {
        lock.withLock { _ in
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes {
                    Glibc.write(2, $0.baseAddress! + offset, $0.count - offset)
                }
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // stderr closed or full: a log line is not worth blocking or crashing for
                }
            }
        }
    }
}
