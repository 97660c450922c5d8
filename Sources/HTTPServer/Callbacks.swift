import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// libmicrohttpd's callbacks. They are static members of a type in this module, not closures
/// of an executable's top-level code, so they carry no actor isolation: libmicrohttpd calls
/// them on its own worker threads.
enum Callbacks {
    /// Where a request is, kept in libmicrohttpd's per-request pointer. libmicrohttpd only
    /// stores and returns it, so constant non-null values do; taking the address of a global on
    /// every call instead was a modifying access from many threads (TSan reports it).
    /// `requestCompleted` counts a request out when it was counted in (waiting or answered).
    nonisolated(unsafe) static let waitingMarker = UnsafeMutableRawPointer(bitPattern: 1)!
    nonisolated(unsafe) static let answeredMarker = UnsafeMutableRawPointer(bitPattern: 2)!
    /// Set by `uriLogged` on a request to refuse once its headers are in.
    nonisolated(unsafe) static let tooManyParametersMarker = UnsafeMutableRawPointer(bitPattern: 3)!
    nonisolated(unsafe) static let nulInPathMarker = UnsafeMutableRawPointer(bitPattern: 4)!
    nonisolated(unsafe) static let whitespaceInTargetMarker = UnsafeMutableRawPointer(bitPattern: 5)!
    /// A request handed to `ExpensiveRequests`, its connection suspended until its answer is in.
    nonisolated(unsafe) static let suspendedMarker = UnsafeMutableRawPointer(bitPattern: 6)!
    /// Set by `uriLogged` on libmicrohttpd 0.9.75: the target's length as handed over, this
    /// plus the length, for the first call of `access` to compare with the target received
    /// (see `hasRawNul`). A target fits in the connection's memory pool, so these values stay
    /// above the markers and far below any address the heap hands out.
    static let targetLengthBase = 16

    /// Called by libmicrohttpd with the raw request target, before it splits off the query,
    /// records each parameter in the connection's memory pool and decodes the path; what it
    /// returns becomes the request's pointer. Two things are decided here because afterwards
    /// they cannot be:
    /// - A query with more parameters than the pool has room for: 600 exhausted it, and
    ///   libmicrohttpd 0.9.75 then lost the request (parse_initial_message_line ignores the
    ///   failure of MHD_parse_arguments_ and overwrites the error state it set), holding the
    ///   connection silently until the timeout. The query is cut here, at its first byte, so
    ///   that libmicrohttpd records none, and the request is refused once its headers are in.
    ///   The target is libmicrohttpd's own writable read buffer, handed as `const` only; the
    ///   query pointer it splits at was found before this call, so the cut is seen.
    /// - `%00` in the path, which decoding turns into the end of the C string handed over, and
    ///   white space inside the target, which 0.9.75 keeps in the path (`RequestChecks`).
    /// - On 0.9.75, the target's length up to its first NUL: a raw NUL ends the C string handed
    ///   here, hiding what follows from every check (`hasRawNul`).
    static let uriLogged:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            context, uri, _ in
            guard let context, let uri else { return nil }
            let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
            let length = strlen(uri)
            return uri.withMemoryRebound(to: UInt8.self, capacity: length) { bytes -> UnsafeMutableRawPointer? in
                let target = UnsafeBufferPointer(start: bytes, count: length)
                // Before the cut below, which writes a NUL into the target.
                let refusal = RequestChecks.refusal(rawTarget: target)
                var marker: UnsafeMutableRawPointer?
                if let question = target.firstIndex(of: UInt8(ascii: "?")),
                    RequestChecks.parameterCount(rawQuery: UnsafeBufferPointer(rebasing: target[(question + 1)...]))
                        > core.maxQueryParameters
                {
                    UnsafeMutablePointer(mutating: bytes)[question + 1] = 0
                    marker = tooManyParametersMarker
                }
                switch refusal?.reason {
                case .malformed(.whitespaceInTarget)?: return whitespaceInTargetMarker
                case .some: return nulInPathMarker
                case nil where marker == nil && !HTTPServer.libraryParsesStrictly:
                    return UnsafeMutableRawPointer(bitPattern: targetLengthBase + length)
                case nil: return marker
                }
            }
        }

    /// Called when the headers are in, then once per piece of body, then once more with none.
    /// GET and HEAD are answered on that last call: answering earlier makes libmicrohttpd
    /// close the connection instead of keeping it alive. Other methods, and requests that
    /// announce a body (which no route takes), are answered at once, without reading it.
    static let access: MHD_AccessHandlerCallback = {
        context, connection, url, method, version, _, uploadSize, requestContext in
        guard let context, let connection, let requestContext else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        let waiting = waitingMarker
        let answered = answeredMarker
        let methodName = method.map { String(cString: $0) } ?? ""

        var early: HTTPRefusal?
        switch requestContext.pointee {
        case waiting where (uploadSize?.pointee ?? 0) == 0:
            break
        case suspendedMarker:
            // Resumed by `ExpensiveRequests`, its answer in.
            requestContext.pointee = answered
            guard var response = core.expensive?.response(for: connection) else {
                // Its client left before it was handled (`ExpensiveRequests`): closed, and
                // libmicrohttpd's message about it left out.
                core.answeredDirectly.withLock { _ = $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
                return .NO
            }
            if core.draining.load(ordering: .relaxed) { response.headers.append(("Connection", "close")) }
            return queue(response, on: connection)
        case waiting, answered:
            // A body the route will not read: dropped as it arrives.
            uploadSize?.pointee = 0
            return .YES
        default:
            // The first call: the headers are in.
            core.inFlight.add(1, ordering: .relaxed)
            core.connections.disarm(cmhd_connection_fd(connection))
            switch requestContext.pointee {
            case tooManyParametersMarker: early = HTTPRefusal(.tooManyParameters(limit: core.maxQueryParameters))
            case nulInPathMarker: early = HTTPRefusal(.malformed(.nulInPath))
            case whitespaceInTargetMarker: early = HTTPRefusal(.malformed(.whitespaceInTarget))
            case let marker?:
                if hasRawNul(url: url, version: version, lengthMarker: marker) {
                    early = HTTPRefusal(.malformed(.whitespaceInTarget))
                }
            case nil: break
            }
            if early == nil {
                early = scanHeaders(of: connection, method: method, version: version).verdict(
                    isHTTP11: version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false,
                    isHTTP10: version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false)
            }
            if early == nil, methodName == "GET" || methodName == "HEAD", !announcesBody(connection) {
                requestContext.pointee = waiting
                return .YES
            }
        }
        requestContext.pointee = answered

        let request = HTTPRequest(
            method: methodName,
            path: RequestChecks.originPath(url.map { String(cString: $0) } ?? "/"),
            query: values(of: connection, kind: .GET_ARGUMENT_KIND).map { QueryItem(name: $0.name, value: $0.value) },
            headers: values(of: connection, kind: .HEADER_KIND).map { ($0.name, $0.value ?? "") },
            peerAddress: cmhd_client_address(connection).flatMap { SocketAddress.host(of: $0) })
        var response: HTTPResponse
        if let refusal = early
            ?? refusal(of: request, announcesBody: announcesBody(connection), limit: core.maxRequestBytes)
        {
            response = core.refusalResponder(refusal, request)
            response.headers.append(("Connection", "close"))
            core.observer.requestRefused(request.method, refusal.status, response.body.count)
            // A head this large may have left libmicrohttpd no memory to send the answer with.
            let socket = cmhd_connection_fd(connection)
            if core.plainSockets, cmhd_request_header_size(connection) > 2 * core.maxRequestBytes, socket >= 0 {
                _ = DirectAnswer.send(response, on: socket)
                core.answeredDirectly.withLock { _ = $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
                return .NO
            }
        } else if let expensive = core.expensive, core.isExpensive?(request) == true {
            requestContext.pointee = suspendedMarker
            if expensive.admit(
                request, connection: connection, socket: cmhd_connection_fd(connection),
                suspend: { MHD_suspend_connection(connection) })
            {
                return .YES
            }
            requestContext.pointee = answered
            let refusal = HTTPRefusal(.overloaded(retryAfter: ServerCore.retryAfterSeconds))
            response = core.refusalResponder(refusal, request)
            response.headers.append(("Retry-After", String(ServerCore.retryAfterSeconds)))
            if core.draining.load(ordering: .relaxed) { response.headers.append(("Connection", "close")) }
            core.observer.requestRefused(request.method, refusal.status, response.body.count)
        } else {
            response = core.handler(request)
            if core.draining.load(ordering: .relaxed) {
                response.headers.append(("Connection", "close"))
            }
        }
        return queue(response, on: connection)
    }

    /// What the HTTP layer refuses of a well-formed request before any route sees it: a body on
    /// GET or HEAD (no route reads one), a URI or headers over the limit. libmicrohttpd would
    /// refuse the largest itself, but with its own English page; its own limit is set above
    /// this one (see `RunningDaemon`).
    private static func refusal(of request: HTTPRequest, announcesBody: Bool, limit: Int) -> HTTPRefusal? {
        if request.isGetOrHead, announcesBody { return HTTPRefusal(.bodyNotAccepted) }
        let uriBytes = request.query.reduce(request.path.utf8.count) {
            $0 + $1.name.utf8.count + ($1.value?.utf8.count ?? 0) + 2
        }
        if uriBytes > limit { return HTTPRefusal(.uriTooLong(limit: limit)) }
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if headerBytes > limit { return HTTPRefusal(.headersTooLarge(limit: limit)) }
        return nil
    }

    /// Whether the target received holds a raw NUL, on libmicrohttpd 0.9.75: the target ran
    /// from `url` (decoded in place since, but not moved) to the NUL that replaced the space
    /// before the version, which `uriLogged` saw shorter. libmicrohttpd 1.0 refuses a control
    /// character in the target itself.
    private static func hasRawNul(
        url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, lengthMarker: UnsafeMutableRawPointer
    ) -> Bool {
        let seen = Int(bitPattern: lengthMarker) - targetLengthBase
        guard seen >= 0, let url, let version, version > url else { return false }
        return version - url - 1 != seen
    }

    /// A `Content-Length` above zero or a `Transfer-Encoding` (each at most once: see `RequestChecks`).
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
        if let connection { core.connections.arm(cmhd_connection_fd(connection)) }
        guard let requestContext else { return }
        let marker = requestContext.pointee
        requestContext.pointee = nil
        if marker == waitingMarker || marker == answeredMarker || marker == suspendedMarker {
            core.inFlight.subtract(1, ordering: .relaxed)
        } else if let connection, case let status = cmhd_queued_status(connection), status > 0,
            !core.headsAnsweredDirectly.withLock({ $0.contains(cmhd_connection_fd(connection)) })
        {
            // libmicrohttpd answered by itself (its 431 when the headers outgrew its memory, for
            // one): counted like the server's own refusals.
            core.observer.requestRefused("", Int(status), 0)
        }
    }

    static let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
        guard let context else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        if core.connections.admits(address.flatMap { SocketAddress.host(of: $0) }) { return .YES }
        core.observer.connectionRefused()
        return .NO
    }

    static let connectionNotified: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let context else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        let socket = connection.map { cmhd_connection_fd($0) } ?? -1
        if code == .CONNECTION_NOTIFY_STARTED {
            core.connections.opened(
                socket, address: connection.flatMap { cmhd_client_address($0) }.flatMap { SocketAddress.host(of: $0) },
                connection: connection)
            core.openConnections.add(1, ordering: .relaxed)
            core.observer.connectionOpened()
        } else {
            core.headsAnsweredDirectly.withLock { _ = $0.remove(socket) }
            let evicted = core.connections.closed(socket)
            core.workers.release(connection.flatMap { cmhd_connection_daemon($0) }, evicted: evicted)
            core.openConnections.subtract(1, ordering: .relaxed)
            core.observer.connectionClosed()
        }
    }

    /// libmicrohttpd's messages, numbers filled in and strings left out
    /// (`cmhd_format_without_strings`). On 0.9.75, the message that precedes each of its own
    /// refusals also marks the one moment the server can stop a double answer: a refusal made
    /// once the headers are in (a Content-Length it cannot read, a Cookie header past its memory)
    /// has its status line and headers built twice before one body (its state machine goes on
    /// past transmit_error_response_len). Nothing of the server runs between that and the
    /// sending, so the connection is dropped here instead (`ConnectionTable.dropRefusedTwice`).
    static let libraryMessage: MHD_LogCallback = { context, format, arguments in
        guard let context, let format else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        if !HTTPServer.libraryParsesStrictly, strncmp(format, errorResponsePrefix, strlen(errorResponsePrefix)) == 0,
            core.connections.dropRefusedTwice() > 0
        {
            let message = "Connection dropped: libmicrohttpd 0.9.75 would have sent its refusal's head twice"
            if core.messages.admits(message) { core.observer.libraryMessage(message) }
        }
        if strcmp(format, "%s\n") == 0 || strncmp(format, applicationErrorPrefix, strlen(applicationErrorPrefix)) == 0,
            core.answeredDirectly.withLock({ $0.remove(UInt(bitPattern: Int(bitPattern: pthread_self()))) }) != nil
        {
            // The handler's refusal to go on after `DirectAnswer`: the request is logged already.
            return
        }
        if core.plainSockets, strncmp(format, noRecordRoomPrefix, strlen(noRecordRoomPrefix)) == 0,
            let socket = core.connections.takeOversizedHead(minimum: Int64(2 * core.maxRequestBytes))
        {
            // libmicrohttpd cannot store a header of this head, and will find no room for its own
            // 431 either (`DirectAnswer`): the layer's goes out first, and the socket is shut.
            let refusal = HTTPRefusal(.headersTooLarge(limit: core.maxRequestBytes))
            var response = core.refusalResponder(refusal, nil)
            response.headers.append(("Connection", "close"))
            core.headsAnsweredDirectly.withLock { _ = $0.insert(socket) }
            _ = DirectAnswer.send(response, on: socket)
            core.observer.requestRefused("", refusal.status, response.body.count)
        }
        var message = String(cString: format)
        if let arguments {
            var buffer = [CChar](repeating: 0, count: 512)
            cmhd_format_without_strings(&buffer, buffer.count, format, arguments)
            message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        message = message.trimmingTrailingNewlines()
        if core.messages.admits(message) { core.observer.libraryMessage(message) }
    }

    /// How libmicrohttpd 0.9.75 begins the message of transmit_error_response_len.
    private static let errorResponsePrefix = "Error processing request"
    /// How libmicrohttpd begins the message of a handler that returned MHD_NO (0.9.75 passes it
    /// to its logger as the argument of `%s\n`).
    private static let applicationErrorPrefix = "Application reported internal error"
    /// How libmicrohttpd 0.9.75 says a header's record found no room in the connection's memory.
    private static let noRecordRoomPrefix = "Not enough memory in pool to allocate header record"

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes {
            MHD_create_response_from_buffer(
                $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for header in response.headers where MHD_add_response_header(created, header.name, header.value) != .YES {
            // libmicrohttpd refuses only headers it sets itself or with a line break: a
            // response missing one of its headers must not go out.
            return .NO
        }
        return MHD_queue_response(connection, UInt32(response.status), created)
    }

    /// The headers as stored, checked in place (see `RequestChecks.HeaderScan`): the head as
    /// received starts at the method.
    /// On 0.9.75, where the layout of the head in place is known (see `RequestChecks.HeaderScan`),
    /// the lines are checked too.
    private static func scanHeaders(
        of connection: OpaquePointer, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> RequestChecks.HeaderScan {
        let headSize = cmhd_request_header_size(connection)
        let head = headSize > 0 ? method.map { UnsafeRawPointer($0)..<(UnsafeRawPointer($0) + headSize) } : nil
        var requestLineEnd: UnsafeRawPointer?
        if !HTTPServer.libraryParsesStrictly, let head, let version, head.contains(UnsafeRawPointer(version)) {
            requestLineEnd = UnsafeRawPointer(version) + strlen(version)
        }
        var scan = RequestChecks.HeaderScan(head: head, requestLineEnd: requestLineEnd)
        if !HTTPServer.libraryParsesStrictly {
            scan.endedByEmptyName = cmhd_head_ended_by_empty_name(connection, method, version) == 1
        }
        withUnsafeMutablePointer(to: &scan) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { context, _, key, keySize, value, valueSize in
                    guard let context, let key else { return .YES }
                    key.withMemoryRebound(to: UInt8.self, capacity: keySize) {
                        context.assumingMemoryBound(to: RequestChecks.HeaderScan.self).pointee.add(
                            name: UnsafeBufferPointer(start: $0, count: keySize),
                            valueEnd: value.map { UnsafeRawPointer($0) + valueSize })
                    }
                    return .YES
                }, pointer)
        }
        return scan
    }

    /// Headers or query arguments, decoded by libmicrohttpd. Read with their lengths: a `%00`
    /// stays in the value (and makes it invalid) instead of silently ending it there.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String?)] {
        var collected: [(name: String, value: String?)] = []
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(
                connection, kind,
                { context, _, key, keySize, value, valueSize in
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
