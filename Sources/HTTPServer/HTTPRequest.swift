/// A request as libmicrohttpd parsed it: the path and query are already percent-decoded.
public struct HTTPRequest: Sendable {
    /// The method as sent, for example `GET`.
    public var method: String
    /// The decoded path, without the query string.
    public var path: String
    /// The decoded query parameters, in order; a name without `=` has a nil value.
    public var query: [QueryItem]
    /// The request headers, in order.
    public var headers: [(name: String, value: String)]
    /// The peer's address, `127.0.0.1` or `::1` style, when known.
    public var peerAddress: String?

    public init(
        method: String, path: String, query: [QueryItem] = [], headers: [(name: String, value: String)] = [],
        peerAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.peerAddress = peerAddress
    }

    /// The first header of that name, compared without case.
    public func header(_ name: String) -> String? {
        firstValue(named: name, in: headers)
    }

    /// HEAD is answered as GET; libmicrohttpd leaves the body out.
    public var isGetOrHead: Bool { method == "GET" || method == "HEAD" }
}

/// One `name=value` of a query string.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}

/// The value of the first header of that name; header names compare without case.
func firstValue(named name: String, in headers: [(name: String, value: String)]) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.name.utf8.count == lowered.utf8.count && $0.name.lowercased() == lowered }?.value
}
