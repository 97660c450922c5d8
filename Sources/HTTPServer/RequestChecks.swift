/// The checks RFC 9112 asks of a server that libmicrohttpd 0.9.75 does not make, or makes only
/// in its "strict" modes, which answer with fixed English HTML pages and cannot be combined
/// (level 1 requires Host, level -1 refuses a space before the colon; neither refuses folded
/// lines or repeated framing headers). Each refusal here closes the connection: a request that
/// two parsers could read differently must not be followed by another on the same connection.
/// The headers are looked at in place, in libmicrohttpd's memory, without copies: this runs for
/// every request.
enum RequestChecks {
    /// The headers, one at a time, as libmicrohttpd stored them.
    struct HeaderScan {
        /// The request's head as received: from the method, `header_size` bytes. libmicrohttpd
        /// 0.9.75 joins a folded line onto the previous header by copying it into a new block
        /// of its memory pool, outside the head (process_broken_line in connection.c): nothing
        /// else tells a folded header from a plain one. Nil when unknown.
        let head: Range<UnsafeRawPointer>?
        private(set) var refusal: HTTPRefusal?
        private var hosts = 0, contentLengths = 0, transferEncodings = 0
        /// Where the next header line must start for the head to be lines that each end in CRLF
        /// (see `init(head:requestLineEnd:)`); nil when not checked.
        private var nextLine: UnsafeRawPointer?
        /// Set when libmicrohttpd 0.9.75 ended the head on a header line with an empty name
        /// (`:` then a bare LF is as long as the blank line's CRLF, and leaves the same NULs in
        /// place: only the parser's state tells, see `cmhd_head_ended_by_empty_name`).
        var endedByEmptyName = false

        /// - Parameter requestLineEnd: where the request line's text ends (after the version),
        ///   to check the head's layout: libmicrohttpd 0.9.75 turns each CR and LF into a NUL in
        ///   place, so in a head of CRLF lines each header's name starts two bytes after the
        ///   previous line's text, and the head ends four bytes after the last. Anything else
        ///   is a line 0.9.75 read otherwise than RFC 9112: one ending in a bare LF, or one
        ///   with an empty name (`: x`), which 0.9.75 takes for the end of the headers, the
        ///   bytes after it becoming a second request. Nil skips the check (1.0 refuses both).
        init(head: Range<UnsafeRawPointer>?, requestLineEnd: UnsafeRawPointer? = nil) {
            self.head = head
            nextLine = requestLineEnd.map { $0 + 2 }
        }

        mutating func add(name: UnsafeBufferPointer<UInt8>, valueEnd: UnsafeRawPointer? = nil) {
            guard refusal == nil else { return }
            if let head, let start = name.baseAddress, !head.contains(UnsafeRawPointer(start)) {
                refusal = HTTPRefusal(.malformed(.foldedHeader))
            } else if let expected = nextLine, name.baseAddress.map(UnsafeRawPointer.init) != expected {
                refusal = HTTPRefusal(.malformed(.invalidLine))
            } else if name.isEmpty || !name.allSatisfy(RequestChecks.isTokenCharacter) {
                refusal = HTTPRefusal(.malformed(.invalidHeaderName))
            } else if RequestChecks.matches(name, "host") {
                hosts += 1
            } else if RequestChecks.matches(name, "content-length") {
                contentLengths += 1
            } else if RequestChecks.matches(name, "transfer-encoding") {
                transferEncodings += 1
            }
            if nextLine != nil { nextLine = valueEnd.map { $0 + 2 } }
        }

        /// The refusal this request's version and headers call for, if any.
        func verdict(isHTTP11: Bool, isHTTP10: Bool) -> HTTPRefusal? {
            guard isHTTP11 || isHTTP10 else { return HTTPRefusal(.versionNotSupported) }
            if let refusal { return refusal }
            if endedByEmptyName { return HTTPRefusal(.malformed(.invalidLine)) }
            if let nextLine, nextLine + 2 != head?.upperBound { return HTTPRefusal(.malformed(.invalidLine)) }
            if hosts > 1 { return HTTPRefusal(.malformed(.duplicateHost)) }
            if hosts == 0, isHTTP11 { return HTTPRefusal(.malformed(.missingHost)) }
            if contentLengths > 1 { return HTTPRefusal(.malformed(.duplicateContentLength)) }
            if transferEncodings > 1 || (transferEncodings == 1 && contentLengths == 1) {
                return HTTPRefusal(.malformed(.conflictingFraming))
            }
            return nil
        }
    }

    /// What the raw request target (before decoding) calls for:
    /// - white space or a control character anywhere in it: libmicrohttpd 0.9.75 splits the
    ///   request line at its last space and serves `GET /a b HTTP/1.1` as the path `/a b`, where
    ///   a proxy in front may read another target or refuse (1.0 at the strictest discipline
    ///   refuses it itself, and never calls back with such a target);
    /// - `%00` in the path, which libmicrohttpd would decode into a NUL that ends the path it
    ///   hands over as a C string. Query values are read with their lengths, so a `%00` there
    ///   stays in the value.
    static func refusal(rawTarget: UnsafeBufferPointer<UInt8>) -> HTTPRefusal? {
        if rawTarget.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return HTTPRefusal(.malformed(.whitespaceInTarget))
        }
        let path = rawTarget.prefix { $0 != UInt8(ascii: "?") }
        var index = path.startIndex
        while index + 2 < path.endIndex {
            if path[index] == UInt8(ascii: "%"), path[index + 1] == UInt8(ascii: "0"),
                path[index + 2] == UInt8(ascii: "0")
            {
                return HTTPRefusal(.malformed(.nulInPath))
            }
            index += 1
        }
        return nil
    }

    /// The path of a target in absolute form (`http://host/healthz`), which RFC 9112 §3.2.2 asks a
    /// server to accept and libmicrohttpd hands over whole: what follows the authority, `/` when
    /// nothing does. Any other target is returned as it is.
    static func originPath(_ target: String) -> String {
        guard !target.hasPrefix("/") else { return target }
        let lowered = target.prefix(8).lowercased()
        let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return target }
        let authorityAndPath = target.dropFirst(schemeLength)
        guard let slash = authorityAndPath.firstIndex(of: "/") else { return "/" }
        return String(authorityAndPath[slash...])
    }

    /// The number of records libmicrohttpd would make of a raw query string, one more at most:
    /// one per `&`-separated piece, empty ones included (MHD_parse_arguments_ in internal.c).
    static func parameterCount(rawQuery: UnsafeBufferPointer<UInt8>) -> Int {
        rawQuery.isEmpty ? 0 : rawQuery.reduce(1) { $1 == UInt8(ascii: "&") ? $0 + 1 : $0 }
    }

    /// RFC 9110 §5.6.2: `tchar`, letters, digits and !#$%&'*+-.^_`|~.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: true
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// Whether `name` is `lowercase` but for the case of its letters.
    static func matches(_ name: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard name.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for (byte, wanted) in zip(name, expected) {
            let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            if folded != wanted { return false }
        }
        return true
    }
}
