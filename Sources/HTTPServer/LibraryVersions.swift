import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

extension HTTPServer {
    /// The versions of the C libraries this module runs on, as loaded now, by the component ids of
    /// the Licenses module: libmicrohttpd, and the GnuTLS it was linked with when the process has
    /// it loaded (found by name, so that no module imports GnuTLS).
    public static let libraryVersions: [String: String] = {
        var versions: [String: String] = [:]
        if let version = MHD_get_version() { versions["libmicrohttpd"] = String(cString: version) }
        typealias CheckVersion = @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<CChar>?
        // A null handle is RTLD_DEFAULT: every library the process has loaded.
        if let symbol = dlsym(nil, "gnutls_check_version"),
            let version = unsafeBitCast(symbol, to: CheckVersion.self)(nil)
        {
            versions["gnutls"] = String(cString: version)
        }
        return versions
    }()
}

extension HTTPServer {
    /// The request-parsing discipline the server asks of libmicrohttpd
    /// (MHD_OPTION_CLIENT_DISCIPLINE_LVL): 3, its strictest, from 0.9.77 on (Debian 13's 1.0.1);
    /// 0 on 0.9.75 (Debian 12), which has no such level, `RequestChecks` refusing there what
    /// the access handler can see.
    public static let requestParsingDiscipline: Int = {
        var option = MHD_OptionItem()
        return Int(cmhd_strictest_parsing(&option))
    }()

    /// Whether libmicrohttpd refuses by itself, with its own short English page and before any
    /// callback of this module sees the request, what its parser rejects: from 0.9.77 on, an
    /// HTTP/1.1 request without Host (at every discipline level but the most lenient), a space
    /// inside the request target, bare LF line ends, a folded header (connection.c of 1.0.1).
    /// 0.9.75 lets those through to `RequestChecks`, which words its refusals through the owner.
    public static var libraryParsesStrictly: Bool { requestParsingDiscipline > 0 }
}
