import HTTPServer
import Testing

@Suite struct AddressRangeTests {
    @Test func prefixesMatchTheirAddressesOnly() throws {
        let loopback = try #require(AddressRange("127.0.0.0/8"))
        #expect(loopback.contains("127.0.0.1") && loopback.contains("127.255.0.9"))
        #expect(!loopback.contains("128.0.0.1") && !loopback.contains("10.0.0.1"))
        #expect(loopback.contains("::ffff:127.0.0.1"))
        #expect(!loopback.contains("::1"))
        let one = try #require(AddressRange("::1"))
        #expect(one.contains("::1") && !one.contains("::2"))
        let odd = try #require(AddressRange("10.1.2.0/23"))
        #expect(odd.contains("10.1.3.200") && !odd.contains("10.1.4.0") && !odd.contains("10.1.1.255"))
        let everyone = try #require(AddressRange("0.0.0.0/0"))
        #expect(everyone.contains("203.0.113.9") && !everyone.contains("2001:db8::1"))
        let v6 = try #require(AddressRange("fd00::/8"))
        #expect(v6.contains("fd12:3456::1") && !v6.contains("fe80::1"))
        #expect(!loopback.contains("localhost") && !loopback.contains(""))
    }

    @Test func anythingButAnAddressWithAPrefixIsRefused() {
        for text in [
            "", "localhost", "127.0.0.1/33", "::1/129", "127.0.0.1/", "127.0.0.1/-1", "127.0.0.1/8/8", "1.2.3",
        ] {
            #expect(AddressRange(text) == nil, "\(text)")
        }
    }
}
