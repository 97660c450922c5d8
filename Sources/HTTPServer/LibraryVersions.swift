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
