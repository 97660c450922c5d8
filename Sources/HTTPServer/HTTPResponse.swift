/// A whole response: status, headers and body, built by a handler and sent as is.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Headers in order; libmicrohttpd adds `Content-Length` and `Date`.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain` UTF-8 response.
    public static func text(
        _ status: Int, _ text: String, headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Array(text.utf8))
    }

    /// The first header of that name, compared without case.
    public func header(_ name: String) -> String? {
        firstValue(named: name, in: headers)
    }
}

/// Answers one request; called on libmicrohttpd's worker threads, so it must not block long.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse
