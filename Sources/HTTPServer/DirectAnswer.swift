import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A refusal written on the socket by the layer itself, for the one case where libmicrohttpd has
/// no memory left to send it: a head that fills the connection's memory pool (issue 29, item 3).
/// libmicrohttpd 0.9.75 lets the read buffer grow into the whole pool, so a head a little under
/// its size (65.18 to 65.54 KB with the default limits) arrives complete with no room left for a
/// response's head: the server's own 414 or 431 could not go out and the connection was closed
/// at once; or a header's record found no room before the head was complete, libmicrohttpd's own
/// 431 found none either, and the connection stayed open and silent until its timeout. Smaller
/// heads leave room, and larger ones libmicrohttpd refuses itself before they are complete.
///
/// Only on plain TCP, where the bytes of a response are the bytes on the socket (through TLS
/// they must go through GnuTLS, which libmicrohttpd holds), and only for a refusal, which closes
/// the connection: nothing else is ever written on it.
enum DirectAnswer {
    /// The response as HTTP/1.1 bytes: status line, the response's headers, `Date`,
    /// `Content-Length` and `Connection: close` (as libmicrohttpd adds them), then the body.
    static func bytes(of response: HTTPResponse, now: time_t = time(nil)) -> [UInt8] {
        let reason = MHD_get_reason_phrase_for(UInt32(response.status)).map { String(cString: $0) } ?? ""
        var head = "HTTP/1.1 \(response.status) \(reason)\r\n"
        for header in response.headers
        where !["connection", "content-length", "date"].contains(header.name.lowercased()) {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "Date: \(httpDate(now))\r\nContent-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + response.body
    }

    /// Writes the response whole on a non-blocking socket that has sent nothing yet (its send
    /// buffer is empty, so a refusal of a few hundred bytes fits at once), then shuts the socket
    /// down: libmicrohttpd's next step on it sees the end and closes it. False when it did not
    /// all go out.
    static func send(_ response: HTTPResponse, on socket: Int32) -> Bool {
        let bytes = bytes(of: response)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            sent += count
        }
        _ = shutdown(socket, Int32(SHUT_RDWR))
        return sent == bytes.count
    }

    /// RFC 9110 §5.6.7: `Thu, 26 Nov 2026 19:40:00 GMT`.
    static func httpDate(_ moment: time_t) -> String {
        var time = moment
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 40)
        let length = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
