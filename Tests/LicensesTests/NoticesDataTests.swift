import AttestationConfiguration
import AttestationService
import Foundation
import Testing

@testable import Licenses

@Suite struct NoticesDataTests {
    let components = ThirdPartyNotices.components
    let licences = ThirdPartyNotices.licences

    @Test func everyComponentHasALicenceAndEveryReferenceExists() {
        let ids = Set(licences.map(\.id))
        for component in components {
            #expect(!component.licenceIDs.isEmpty, "\(component.id) has no licence text")
            #expect(
                !component.licence.isEmpty && !component.role.isEmpty && !component.copyright.isEmpty, "\(component.id)"
            )
            #expect(
                component.upstreamURL.hasPrefix("https://") || component.upstreamURL.hasPrefix("http://"),
                "\(component.id)")
            for id in component.licenceIDs {
                #expect(ids.contains(id), "\(component.id) refers to an unknown text \(id)")
            }
            #expect(Set(component.licenceIDs).count == component.licenceIDs.count, "\(component.id) names a text twice")
        }
    }

    @Test func idsAreUniqueAndEveryTextIsUsed() {
        #expect(Set(components.map(\.id)).count == components.count)
        #expect(Set(licences.map(\.id)).count == licences.count)
        for licence in licences {
            #expect(!ThirdPartyNotices.components(using: licence.id).isEmpty, "\(licence.id) is used by no component")
            #expect(!licence.title.isEmpty && !licence.source.isEmpty, "\(licence.id)")
            #expect(
                licence.id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) },
                "\(licence.id) must be usable as an anchor")
        }
    }

    /// Each distinct text once: no two entries hold the same text, even with other blank lines
    /// around it.
    @Test func eachDistinctTextIsKeptOnce() {
        var seen: [String: String] = [:]
        for licence in licences {
            let key = licence.text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(seen[key] == nil, "\(licence.id) repeats \(seen[key] ?? "")")
            seen[key] = licence.id
        }
    }

    /// The components the issue names are all there.
    @Test func theComponentsTheServiceShipsAreListed() {
        let ids = Set(components.map(\.id))
        for id in [
            "libmicrohttpd", "libharu", "libqrencode", "libpng", "zlib", "gnutls", "nettle", "gmp", "libtasn1",
            "libidn2",
            "libunistring", "p11-kit", "libffi", "dejavu", "swift", "icu", "swift-argument-parser",
            "swift-atomics", "swift-log", "swift-metrics", "swift-prometheus",
            "swiftcsv",
            "formulaire", "harfbuzz", "freetype", "glib", "graphite2", "brotli", "pcre2", "cairo", "pixman",
            "fontconfig",
            "expat", "libx11", "libxext", "libxrender", "libxcb", "libxau", "libxdmcp", "libbsd", "libmd", "urw-base35",
        ] {
            #expect(ids.contains(id), "\(id) missing")
        }
        for id in ["swift-benchmark", "swift-property-based"] {
            #expect(!ids.contains(id), "\(id) ships in no product")
        }
    }

    /// LGPL and GPL components say that they are linked dynamically and where their exact source
    /// is; the others carry no such offer.
    @Test func copyleftComponentsSayWhereTheirSourceIs() throws {
        for component in components {
            let copyleft = component.licence.contains("GPL")
            guard copyleft else {
                #expect(component.sourceOffer == nil, "\(component.id) is not under a copyleft licence")
                continue
            }
            let offer = try #require(component.sourceOffer, "\(component.id) is under the (L)GPL: where is its source?")
            let source = try #require(component.debianSourcePackage)
            #expect(offer.contains("dynamiquement"))
            #expect(offer.contains("apt-get source \(source)"), "\(offer)")
            #expect(offer.contains("https://sources.debian.org/src/\(source)/"), "\(offer)")
            #expect(offer.contains(component.upstreamURL), "\(offer)")
            #expect(component.debianPackages.allSatisfy { offer.contains($0) }, "\(offer)")
        }
    }

    /// Every full text a Debian copyright file sends the reader to (/usr/share/common-licenses/X)
    /// is among the component's texts, except the GFDL of the documentation, which is not shipped.
    @Test func theTextsDebianCopyrightFilesReferToAreIncluded() throws {
        let symlinks = ["GPL": "GPL-3", "LGPL": "LGPL-3"]
        let reference = try Regex("/usr/share/common-licenses/([A-Za-z0-9.+-]*[A-Za-z0-9+])")
        for component in components {
            guard let debian = component.licenceIDs.first(where: { $0.hasPrefix("Debian-") }) else {
                #expect(
                    component.debianSourcePackage == nil,
                    "\(component.id) comes from Debian but lacks its copyright file")
                continue
            }
            let text = try #require(ThirdPartyNotices.licence(id: debian)).text
            for match in text.matches(of: reference) {
                let name = String(text[match.output[1].range!])
                let id = symlinks[name] ?? name
                if id.hasPrefix("GFDL") { continue }
                #expect(component.licenceIDs.contains(id), "\(debian) refers to \(name), missing from \(component.id)")
            }
        }
    }

    /// The copyright lines shown are taken from the texts, not made up; the few taken from the
    /// source headers of Swift packages are listed here, and Luciole's from the fonts' own name
    /// table (its CC BY text names no one).
    @Test func copyrightLinesAppearInTheTexts() {
        let fromSourceHeaders: Set<String> = [
            "swift", "swift-argument-parser", "swift-atomics", "swift-prometheus", "luciole",
        ]
        for component in components where !fromSourceHeaders.contains(component.id) {
            let texts = component.licenceIDs.compactMap { ThirdPartyNotices.licence(id: $0)?.text }
            for line in component.copyright {
                #expect(texts.contains { $0.contains(line) }, "\(component.id): « \(line) » is in none of its texts")
            }
        }
    }

    @Test func linkedVersionsAreKeyedByComponentIDs() throws {
        let ids = Set(components.map(\.id))
        let versions = LinkedLibraries.versions
        for key in versions.keys { #expect(ids.contains(key), "\(key) is no component id") }
        let pattern = try Regex(#"^[0-9]+(\.[0-9]+)+$"#)
        for id in ["libmicrohttpd", "gnutls", "libharu", "libqrencode", "libpng", "zlib"] {
            let version = try #require(versions[id], "no version for \(id)")
            #expect(version.wholeMatch(of: pattern) != nil, "\(id): \(version)")
        }
    }
}
