import AttestationConfiguration
import AttestationService
import Foundation
import Testing

@testable import Licenses

@Suite struct NoticesRenderingTests {
    @Test func plainTextHoldsEveryTextOnceAfterTheComponents() throws {
        let text = ThirdPartyNotices.plainText(versions: ["libmicrohttpd": "0.9.99"])
        let textsStart = try #require(text.range(of: "\nTextes des licences\n"))
        for component in ThirdPartyNotices.components {
            let at = try #require(text.range(of: "\n\(component.name) : \(component.role)\n"), "\(component.id)")
            #expect(at.upperBound < textsStart.lowerBound)
        }
        #expect(text.contains("  Version liée : 0.9.99\n"))
        for licence in ThirdPartyNotices.licences {
            #expect(text.components(separatedBy: licence.text).count == 2, "\(licence.id) must appear once")
        }
    }

    @Test func listHasOneLinePerComponent() {
        let list = ThirdPartyNotices.list(versions: ["zlib": "1.2.13"])
        let lines = list.split(separator: "\n")
        #expect(lines.count == ThirdPartyNotices.components.count)
        for (line, component) in zip(lines, ThirdPartyNotices.components) {
            #expect(line.hasPrefix(component.name), "\(line)")
            #expect(line.hasSuffix("[\(component.licenceIDs.joined(separator: ", "))]"), "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("zlib") && $0.contains(" 1.2.13 ") })
    }

    @Test func escapingCoversTheFiveCharacters() {
        #expect(
            ThirdPartyNotices.escape(#"<a href='x'>"Tom" & Jerry</a>"#)
                == "&lt;a href=&#39;x&#39;&gt;&quot;Tom&quot; &amp; Jerry&lt;/a&gt;")
        #expect(ThirdPartyNotices.escape("Ministère ©") == "Ministère ©")
    }

    @Test func htmlHoldsEveryTextOnceEscaped() {
        let html = ThirdPartyNotices.html()
        for licence in ThirdPartyNotices.licences {
            let escaped = ThirdPartyNotices.escape(licence.text)
            #expect(html.components(separatedBy: "<pre class=\"licence\">\(escaped)</pre>").count == 2, "\(licence.id)")
        }
        #expect(!html.contains("Version liée"), "no version row without versions")
        #expect(ThirdPartyNotices.html(versions: ["gnutls": "3.7.9"]).contains("<dt>Version liée</dt><dd>3.7.9</dd>"))
    }

    /// The page is well formed and keeps the accessibility rules axe checks: one h1, headings in
    /// order, landmarks, named links, unique ids, every anchor reachable, nothing inline.
    @Test func htmlIsWellFormed() throws {
        let html = ThirdPartyNotices.html(versions: LinkedLibraries.versions)
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"fr\">"))
        let page = try TagTree(html)
        #expect(page.count("script") == 0 && page.count("style") == 0)
        #expect(
            !page.attributeNames.contains { $0 == "style" || $0.hasPrefix("on") }, "nothing inline: the CSP forbids it")
        #expect(page.unclosed.isEmpty, "unclosed: \(page.unclosed)")
        #expect(page.mismatches.isEmpty, "mismatched: \(page.mismatches.prefix(5))")
        #expect(page.count("h1") == 1)
        for landmark in ["header", "main", "nav", "footer"] { #expect(page.count(landmark) == 1, "\(landmark)") }
        #expect(page.headingLevels.first == 1)
        for (previous, next) in zip(page.headingLevels, page.headingLevels.dropFirst()) {
            #expect(next <= previous + 1, "heading h\(next) after h\(previous)")
        }
        #expect(page.count("section") == ThirdPartyNotices.components.count + ThirdPartyNotices.licences.count)
        #expect(Set(page.ids).count == page.ids.count, "duplicate ids")
        let ids = Set(page.ids)
        for target in page.fragmentLinks { #expect(ids.contains(target), "#\(target) leads nowhere") }
        for label in page.labelledBy { #expect(ids.contains(label), "aria-labelledby \(label)") }
        #expect(page.emptyLinks == 0)
        for component in ThirdPartyNotices.components {
            #expect(ids.contains("c-\(component.id)"))
            #expect(page.fragmentLinks.contains("c-\(component.id)"), "the table of contents leads to \(component.id)")
        }
        for licence in ThirdPartyNotices.licences { #expect(ids.contains("l-\(licence.id)")) }
    }
}

/// A small reading of an HTML page written as this module writes it (lowercase tags, quoted
/// attributes, no comments): enough to check balance and references.
struct TagTree {
    static let voidElements: Set<String> = ["meta", "link", "br", "img", "input", "hr"]
    var unclosed: [String] = []
    var mismatches: [String] = []
    var names: [String] = []
    var headingLevels: [Int] = []
    var ids: [String] = []
    var fragmentLinks: [String] = []
    var labelledBy: [String] = []
    var attributeNames: Set<String> = []
    var emptyLinks = 0

    init(_ html: String) throws {
        let tag = try Regex(#"<(/?)([a-z][a-z0-9]*)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>"#)
        let attribute = try Regex(#"([a-z-]+)="([^"]*)""#)
        var stack: [String] = []
        var lastLinkTextStart: String.Index?
        var body = html[...]
        if body.hasPrefix("<!doctype html>") { body = body.dropFirst("<!doctype html>".count) }
        for match in body.matches(of: tag) {
            let closing = !match.output[1].substring!.isEmpty
            let name = String(match.output[2].substring!)
            if closing {
                if name == "a", let start = lastLinkTextStart {
                    let text = body[start..<match.range.lowerBound].replacing(try Regex("<[^>]*>"), with: "")
                    if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { emptyLinks += 1 }
                }
                if stack.last == name {
                    stack.removeLast()
                } else {
                    mismatches.append("</\(name)> in \(stack.suffix(3))")
                }
                continue
            }
            names.append(name)
            if name.count == 2, name.first == "h", let level = Int(String(name.last!)) { headingLevels.append(level) }
            for pair in String(match.output[3].substring!).matches(of: attribute) {
                let key = String(pair.output[1].substring!)
                let value = String(pair.output[2].substring!)
                attributeNames.insert(key)
                if key == "id" { ids.append(value) }
                if key == "href", value.hasPrefix("#") { fragmentLinks.append(String(value.dropFirst())) }
                if key == "aria-labelledby" { labelledBy.append(value) }
            }
            if name == "a" { lastLinkTextStart = match.range.upperBound }
            if !Self.voidElements.contains(name) { stack.append(name) }
        }
        unclosed = stack
    }

    func count(_ name: String) -> Int { names.filter { $0 == name }.count }
}
