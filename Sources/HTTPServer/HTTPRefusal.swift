/// A request the HTTP layer answers itself, before any handler sees it: why, and with which
/// status. The server's owner words the response (see `HTTPRefusalResponder`); the connection is
/// closed after it, but for `overloaded`.
public struct HTTPRefusal: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// A GET or HEAD announcing a body: no handler reads one.
        case bodyNotAccepted
        /// The decoded path and query over `limit` bytes.
        case uriTooLong(limit: Int)
        /// More than `limit` query parameters.
        case tooManyParameters(limit: Int)
        /// The headers over `limit` bytes.
        case headersTooLarge(limit: Int)
        /// Framing or syntax that a proxy could read otherwise than this server (RFC 9112).
        case malformed(MalformedRequest)
        /// An HTTP version other than 1.0 and 1.1.
        case versionNotSupported
        /// An expensive request (see `HTTPServer.init`) while as many as the server takes already
        /// wait: the client may retry after `retryAfter` seconds (sent as `Retry-After`).
        case overloaded(retryAfter: Int)
    }

    /// What makes a request malformed, each a way two parsers could disagree about it.
    public enum MalformedRequest: Sendable, Equatable {
        /// HTTP/1.1 without a Host header (RFC 9112 §3.2).
        case missingHost
        /// More than one Host header (RFC 9112 §3.2).
        case duplicateHost
        /// More than one Content-Length (RFC 9112 §6.3).
        case duplicateContentLength
        /// More than one Transfer-Encoding, or one with a Content-Length (RFC 9112 §6.1, §6.3).
        case conflictingFraming
        /// A header name that is not a token, such as one with a space before the colon (RFC 9112 §5.1).
        case invalidHeaderName
        /// A header continued on the next line (obs-fold, RFC 9112 §5.2).
        case foldedHeader
        /// An encoded NUL (`%00`) in the path, which would end it early.
        case nulInPath
        /// White space or a control character inside the request target, which libmicrohttpd
        /// 0.9.75 keeps as part of the path where other parsers stop or refuse (RFC 9112 §3.2).
        case whitespaceInTarget
        /// A line that libmicrohttpd 0.9.75 reads otherwise than RFC 9112: one ending in a bare
        /// LF, or a header line with an empty name (`: x`), where 0.9.75 ends the headers.
        case invalidLine
    }

    public let reason: Reason

    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var status: Int {
        switch reason {
        case .bodyNotAccepted: 413
        case .uriTooLong, .tooManyParameters: 414
        case .headersTooLarge: 431
        case .malformed: 400
        case .versionNotSupported: 505
        case .overloaded: 503
        }
    }
}

extension HTTPRefusal: CustomStringConvertible {
    /// An English summary, for logs and the default responder.
    public var description: String {
        switch reason {
        case .bodyNotAccepted: "request body not accepted on GET or HEAD"
        case .uriTooLong(let limit): "URI over \(limit) bytes"
        case .tooManyParameters(let limit): "more than \(limit) query parameters"
        case .headersTooLarge(let limit): "headers over \(limit) bytes"
        case .malformed(.missingHost): "HTTP/1.1 request without Host"
        case .malformed(.duplicateHost): "more than one Host header"
        case .malformed(.duplicateContentLength): "more than one Content-Length header"
        case .malformed(.conflictingFraming): "conflicting Transfer-Encoding and Content-Length headers"
        case .malformed(.invalidHeaderName): "invalid header name"
        case .malformed(.foldedHeader): "folded header line (obs-fold)"
        case .malformed(.nulInPath): "encoded NUL in the path"
        case .malformed(.whitespaceInTarget): "white space or control character in the request target"
        case .malformed(.invalidLine): "line not ending in CRLF, or header line with an empty name"
        case .versionNotSupported: "HTTP version not supported (1.0 and 1.1 are)"
        case .overloaded(let seconds): "too many expensive requests at once, retry after \(seconds) s"
        }
    }
}

/// Makes the response to a refusal; the request is as parsed, when it could be. Called on
/// libmicrohttpd's worker threads.
public typealias HTTPRefusalResponder = @Sendable (HTTPRefusal, HTTPRequest?) -> HTTPResponse

extension HTTPRefusal {
    /// A plain-text response naming the refusal, for owners with no wording of their own.
    public static let plainText: HTTPRefusalResponder = { refusal, _ in
        .text(refusal.status, "\(refusal.description)\n", headers: [("Cache-Control", "no-store")])
    }
}
