#if canImport(Glibc)
    import Glibc
#endif

/// The listening socket, opened here rather than by libmicrohttpd so that a failure says why
/// (port taken, address unknown, permission) instead of a bare "could not start".
struct ListeningSocket {
    let descriptor: Int32
    let port: Int

    static func open(host: String, port: Int, backlog: Int32 = 1024) throws(HTTPServerError) -> ListeningSocket {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unknownHost(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }

        var lastError: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let descriptor = socket(info.pointee.ai_family, flags, 0)
            guard descriptor >= 0 else {
                lastError = errno
                continue
            }
            var one: Int32 = 1
            var zero: Int32 = 0
            let size = socklen_t(MemoryLayout<Int32>.size)
            guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, size) == 0,
                // "::" listens on IPv4 too, as most servers do.
                info.pointee.ai_family != AF_INET6
                    || setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, size) == 0,
                bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0,
                listen(descriptor, backlog) == 0
            else {
                lastError = errno
                closeDiscardingError(descriptor)
                continue
            }
            return ListeningSocket(descriptor: descriptor, port: boundPort(descriptor) ?? port)
        }
        switch lastError {
        case EADDRINUSE: throw .addressInUse(host: host, port: port)
        case EACCES: throw .permissionDenied(host: host, port: port)
        case EADDRNOTAVAIL: throw .addressNotAvailable(host: host, port: port)
        default: throw .listenFailed(host: host, port: port, reason: String(cString: strerror(lastError)))
        }
    }

    private static func boundPort(_ descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard found else { return nil }
        return SocketAddress.port(of: &storage)
    }
}

/// Text forms of socket addresses.
enum SocketAddress {
    static func port(of storage: inout sockaddr_storage) -> Int? {
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default:
            return nil
        }
    }

    /// `127.0.0.1`, `::1`; nil for other families.
    static func host(of address: UnsafePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(address.pointee.sa_family)
        let written: UnsafePointer<CChar>?
        switch family {
        case AF_INET:
            written = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                withUnsafePointer(to: inet.pointee.sin_addr) {
                    inet_ntop(AF_INET, $0, &buffer, socklen_t(buffer.count))
                }
            }
        case AF_INET6:
            written = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                withUnsafePointer(to: inet6.pointee.sin6_addr) {
                    inet_ntop(AF_INET6, $0, &buffer, socklen_t(buffer.count))
                }
            }
        default:
            written = nil
        }
        guard written != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Closes a descriptor that nothing was written to. Linux frees the descriptor even when close
/// fails (EINTR, EIO concern data written to it), so there is nothing to retry or report.
func closeDiscardingError(_ descriptor: Int32) {
    _ = close(descriptor)
}
