/// A licence, a notice or a Debian copyright file, in full. Each distinct text is kept once and
/// the components refer to it by `id`.
public struct LicenceText: Sendable, Identifiable {
    /// Stable identifier, used by `ThirdPartyComponent.licenceIDs` and in the page's anchors
    /// (`#l-ID`).
    public let id: String
    /// Its title, in French when it is ours.
    public let title: String
    /// Where the text was copied from, byte for byte.
    public let source: String
    /// The full text, exactly as in `source`.
    public let text: String
}

/// A piece of third-party software (or text) that the service ships or links.
public struct ThirdPartyComponent: Sendable, Identifiable {
    /// Stable identifier: the page's anchor (`#c-ID`) and the key of the `versions` dictionaries.
    public let id: String
    public let name: String
    /// What it does for the service, in French ("serveur HTTP", "génération PDF"…).
    public let role: String
    /// The project's own site.
    public let upstreamURL: String
    /// The Debian 12 binary packages that provide it, if it comes from Debian.
    public let debianPackages: [String]
    /// Their Debian source package, if any.
    public let debianSourcePackage: String?
    /// The main copyright lines; the texts in `licenceIDs` hold them all.
    public let copyright: [String]
    /// The licence in a few French words ("LGPL 2.1 ou ultérieure").
    public let licence: String
    /// The full texts that apply, by `LicenceText.id`: the licence, the notices, the Debian
    /// copyright file.
    public let licenceIDs: [String]
    /// A French remark, if any.
    public let note: String?
    /// For LGPL and GPL components, in French: how the service links it and where its exact
    /// source is.
    public let sourceOffer: String?
}

/// Every third-party component of the service and every licence text, from one source that
/// both the `/licenses` page and `attestation-admin licenses` render.
public enum ThirdPartyNotices {
    /// The components, in the order they are shown.
    public static var components: [ThirdPartyComponent] { Components.all }

    /// Each distinct text once, in the order they are shown.
    public static var licences: [LicenceText] { Licences.all }

    /// The text with that id, if any.
    public static func licence(id: String) -> LicenceText? {
        Licences.all.first { $0.id == id }
    }

    /// The components that refer to a text, in the components' order.
    public static func components(using licenceID: String) -> [ThirdPartyComponent] {
        Components.all.filter { $0.licenceIDs.contains(licenceID) }
    }
}
