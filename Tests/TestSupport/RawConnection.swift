import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to the server made byte by byte, for requests that no HTTP client would send
/// (two Content-Length, folded headers, a missing Host, a request sent in two parts with a stop
/// between them). Reads are bounded by a time limit so a server that never answers fails the
/// test instead of hanging it; that limit is a safety net, never what a test asserts.
public final class RawConnection {
    public let descriptor: Int32

    public init(port: Int, readLimitSeconds: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError.system("socket", errno) }
        var limit = timeval(tv_sec: readLimitSeconds, tv_usec: 0)
        guard setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            let code = errno
            close(descriptor)
            throw RawConnectionError.system("setsockopt", code)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw RawConnectionError.system("connect", code)
        }
    }

    deinit { close(descriptor) }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw RawConnectionError.system("send", errno) }
            sent += written
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Everything until the server closes the connection (or the read limit passes: then
    /// `closed` is false).
    public func readToEnd() -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || errno == ECONNRESET {
                return (received, true)
            } else if errno != EINTR {
                return (received, false)
            }
        }
    }

    /// One response framed by its Content-Length, the connection left open.
    public func readResponse() -> RawResponse? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let response = RawResponse(parsing: received), response.body.count >= response.contentLength {
                return response
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
    }
}

public enum RawConnectionError: Error {
    case system(String, Int32)
}

/// A response as bytes: status, headers, body.
public struct RawResponse {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public var contentLength: Int { header("Content-Length").flatMap { Int($0) } ?? 0 }
    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first response in `bytes`, or nil while its head is incomplete.
    public init?(parsing bytes: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            return nil
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            return nil
        }
        self.status = status
        headers = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = Array(bytes[(end + 4)...])
    }

    /// Every response in `bytes`, one after the other.
    public static func all(in bytes: [UInt8]) -> [RawResponse] {
        var responses: [RawResponse] = []
        var rest = bytes
        while let response = RawResponse(parsing: rest) {
            let length = min(response.contentLength, response.body.count)
            responses.append(
                RawResponse(
                    status: response.status, headers: response.headers, body: Array(response.body.prefix(length))))
            rest = Array(response.body.dropFirst(length))
        }
        return responses
    }

    private init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
