import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd's callbacks. They are static members of a type in this module, not closures
/// of an executable's top-level code, so they carry no actor isolation: libmicrohttpd calls
/// them on its own worker threads.
enum Callbacks {
    /// Where a request is, kept in libmicrohttpd's per-request pointer. libmicrohttpd only
    /// stores and returns it, so two constant non-null values do; taking the address of a
    /// global on every call instead was a modifying access from many threads (TSan reports it).
    /// `requestCompleted` counts a request out when either is set.
    nonisolated(unsafe) static let waitingMarker = UnsafeMutableRawPointer(bitPattern: 1)!
    nonisolated(unsafe) static let answeredMarker = UnsafeMutableRawPointer(bitPattern: 2)!

    /// Called when the headers are in, then once per piece of body, then once more with none.
    /// GET and HEAD are answered on that last call: answering earlier makes libmicrohttpd
    /// close the connection instead of keeping it alive. Other methods, and requests that
    /// announce a body (which no route takes), are answered at once, without reading it.
    static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, uploadSize, requestContext in
        guard let context, let connection, let requestContext else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        let waiting = waitingMarker
        let answered = answeredMarker
        let methodName = method.map { String(cString: $0) } ?? ""

        switch requestContext.pointee {
        case nil:
            core.inFlight.add(1, ordering: .relaxed)
            core.deadlines.disarm(cmhd_connection_fd(connection))
            if methodName == "GET" || methodName == "HEAD", !announcesBody(connection) {
                requestContext.pointee = waiting
                return .YES
            }
        case waiting where (uploadSize?.pointee ?? 0) == 0:
            break
        default:
            // A body the route will not read: dropped as it arrives.
            uploadSize?.pointee = 0
            return .YES
        }
        requestContext.pointee = answered

        let request = HTTPRequest(
            method: methodName,
            path: url.map { String(cString: $0) } ?? "/",
            query: values(of: connection, kind: .GET_ARGUMENT_KIND).map { QueryItem(name: $0.name, value: $0.value) },
            headers: values(of: connection, kind: .HEADER_KIND).map { ($0.name, $0.value ?? "") },
            peerAddress: cmhd_client_address(connection).flatMap { SocketAddress.host(of: $0) })
        var response: HTTPResponse
        if let refusal = refusal(of: request, announcesBody: announcesBody(connection), limit: core.maxRequestBytes) {
            response = refusal
            core.observer.requestRefused(request.method, refusal.status, refusal.body.count)
        } else {
            response = core.handler(request)
        }
        if core.draining.load(ordering: .relaxed) {
            response.headers.append(("Connection", "close"))
        }
        return queue(response, on: connection)
    }

    /// What the HTTP layer refuses before any route sees it: a body on GET or HEAD (no route
    /// reads one), a URI or headers over the limit. libmicrohttpd would refuse the largest
    /// itself, but its refusals reach neither the log nor the metrics; its own limit is set
    /// above this one (see `RunningDaemon`).
    private static func refusal(of request: HTTPRequest, announcesBody: Bool, limit: Int) -> HTTPResponse? {
        let headers: [(name: String, value: String)] = [("Cache-Control", "no-store")]
        if request.isGetOrHead, announcesBody {
            return .text(413, "Corps de requête refusé : ce service n’accepte que GET et HEAD, sans corps.\n", headers: headers)
        }
        let uriBytes = request.query.reduce(request.path.utf8.count) { $0 + $1.name.utf8.count + ($1.value?.utf8.count ?? 0) + 2 }
        if uriBytes > limit {
            return .text(414, "Adresse trop longue : \(limit) octets au plus.\n", headers: headers)
        }
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if headerBytes > limit {
            return .text(431, "En-têtes trop longs : \(limit) octets au plus.\n", headers: headers)
        }
        return nil
    }

    /// A `Content-Length` above zero or a chunked `Transfer-Encoding`.
    private static func announcesBody(_ connection: OpaquePointer) -> Bool {
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") {
            return (Int(String(cString: length).filter { $0 != " " }) ?? 1) != 0
        }
        return MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
    }

    static let requestCompleted: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
        guard let context else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        // The next request on this connection has its own time to arrive.
        if let connection { core.deadlines.arm(cmhd_connection_fd(connection)) }
        guard let requestContext, requestContext.pointee != nil else { return }
        requestContext.pointee = nil
        core.inFlight.subtract(1, ordering: .relaxed)
    }

    static let connectionNotified: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let context else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        let socket = connection.map { cmhd_connection_fd($0) } ?? -1
        if code == .CONNECTION_NOTIFY_STARTED {
            core.deadlines.arm(socket)
            core.openConnections.add(1, ordering: .relaxed)
            core.observer.connectionOpened()
        } else {
            core.deadlines.disarm(socket)
            core.openConnections.subtract(1, ordering: .relaxed)
            core.observer.connectionClosed()
        }
    }

    static let libraryMessage: MHD_LogCallback = { context, format, _ in
        guard let context, let format else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        core.observer.libraryMessage(String(cString: format).trimmingTrailingNewlines())
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes {
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for header in response.headers {
            _ = MHD_add_response_header(created, header.name, header.value)
        }
        return MHD_queue_response(connection, UInt32(response.status), created)
    }

    /// Headers or query arguments, decoded by libmicrohttpd. Read with their lengths: a `%00`
    /// stays in the value (and makes it invalid) instead of silently ending it there.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String?)] {
        var collected: [(name: String, value: String?)] = []
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, kind, { context, _, key, keySize, value, valueSize in
                guard let context, let key else { return .YES }
                let list = context.assumingMemoryBound(to: [(name: String, value: String?)].self)
                list.pointee.append((Callbacks.string(key, keySize), value.map { Callbacks.string($0, valueSize) }))
                return .YES
            }, pointer)
        }
        return collected
    }

    private static func string(_ bytes: UnsafePointer<CChar>, _ count: Int) -> String {
        bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
