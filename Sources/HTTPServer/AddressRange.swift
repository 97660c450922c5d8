#if canImport(Glibc)
    import Glibc
#endif

/// An IP address or a CIDR prefix (`127.0.0.0/8`, `::1`, `fd00::/8`), to tell whether a peer's
/// address (`HTTPRequest.peerAddress`) is one of them. An IPv4 peer seen through an IPv6 socket
/// (`::ffff:127.0.0.1`) is matched as the IPv4 address it is.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's bytes (4 or 16) and how many leading bits must match.
    let bytes: [UInt8]
    let prefixLength: Int
    public let description: String

    /// Nil for anything but an address, with an optional `/bits` within its family's size.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...bits).contains(given) else {
                return nil
            }
            length = given
        }
        self.bytes = bytes
        prefixLength = length
        description = text
    }

    public func contains(_ address: String) -> Bool {
        guard var peer = Self.bytes(of: address) else { return false }
        if peer.count == 16, peer[0..<10].allSatisfy({ $0 == 0 }), peer[10] == 0xFF, peer[11] == 0xFF,
            bytes.count == 4
        {
            peer = Array(peer[12...])
        }
        guard peer.count == bytes.count else { return false }
        var remaining = prefixLength
        for (have, want) in zip(peer, bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if have & mask != want & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// 4 bytes for IPv4, 16 for IPv6, through inet_pton (which takes only the strict forms).
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}
