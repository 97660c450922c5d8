/// The checks RFC 9112 asks of a server that libmicrohttpd 0.9.75 does not make, or makes only
/// in its "strict" modes, which answer with fixed English HTML pages and cannot be combined
/// (level 1 requires Host, level -1 refuses a space before the colon; neither refuses folded
/// lines or repeated framing headers). Each refusal here closes the connection: a request that
/// two parsers could read differently must not be followed by another on the same connection.
enum RequestChecks {
    /// One header as libmicrohttpd stored it.
    struct Header {
        var name: [UInt8]
        var value: [UInt8]
        /// Whether the name lies in the request's head as received. libmicrohttpd 0.9.75 joins a
        /// folded line onto the previous header by copying it into a new block of its memory
        /// pool, outside the head (process_broken_line in connection.c): nothing else tells a
        /// folded header from a plain one.
        var nameInHead: Bool
    }

    /// The refusal this request's version and headers call for, if any.
    static func refusal(version: String, headers: [Header]) -> HTTPRefusal? {
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return HTTPRefusal(.versionNotSupported) }
        var hosts = 0, contentLengths = 0, transferEncodings = 0
        for header in headers {
            guard header.nameInHead else { return HTTPRefusal(.malformed(.foldedHeader)) }
            guard !header.name.isEmpty, header.name.allSatisfy(isTokenCharacter) else {
                return HTTPRefusal(.malformed(.invalidHeaderName))
            }
            switch lowercased(header.name) {
            case Array("host".utf8): hosts += 1
            case Array("content-length".utf8): contentLengths += 1
            case Array("transfer-encoding".utf8): transferEncodings += 1
            default: break
            }
        }
        if hosts > 1 { return HTTPRefusal(.malformed(.duplicateHost)) }
        if hosts == 0, version == "HTTP/1.1" { return HTTPRefusal(.malformed(.missingHost)) }
        if contentLengths > 1 { return HTTPRefusal(.malformed(.duplicateContentLength)) }
        if transferEncodings > 1 || (transferEncodings == 1 && contentLengths == 1) {
            return HTTPRefusal(.malformed(.conflictingFraming))
        }
        return nil
    }

    /// What the raw request target (before decoding) calls for: `%00` in the path, which
    /// libmicrohttpd would decode into a NUL that ends the path it hands over as a C string.
    /// Query values are read with their lengths, so a `%00` there stays in the value.
    static func refusal(rawTarget: UnsafeBufferPointer<UInt8>) -> HTTPRefusal? {
        let path = rawTarget.prefix { $0 != UInt8(ascii: "?") }
        var index = path.startIndex
        while index + 2 < path.endIndex {
            if path[index] == UInt8(ascii: "%"), path[index + 1] == UInt8(ascii: "0"), path[index + 2] == UInt8(ascii: "0") {
                return HTTPRefusal(.malformed(.nulInPath))
            }
            index += 1
        }
        return nil
    }

    /// The number of records libmicrohttpd would make of a raw query string, one more at most:
    /// one per `&`-separated piece, empty ones included (MHD_parse_arguments_ in internal.c).
    static func parameterCount(rawQuery: UnsafeBufferPointer<UInt8>) -> Int {
        rawQuery.isEmpty ? 0 : rawQuery.reduce(1) { $1 == UInt8(ascii: "&") ? $0 + 1 : $0 }
    }

    /// RFC 9110 §5.6.2: `tchar`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func lowercased(_ name: [UInt8]) -> [UInt8] {
        name.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }
}
