import AttestationKit

/// What a form asks of the renderer beyond what it draws today.
///
/// The schema (version 2) says a little more than the renderer draws: the Symbol and
/// ZapfDingbats fonts, and pictures. A form using any of it is refused when an administrator
/// adds it (fail closed: never a page drawn otherwise than its file says), and a built-in one
/// would wait in `FormCatalog.pendingForms` (none does). The renderer that draws them lifts the
/// corresponding lines here.
public struct PendingFeature: Sendable, Hashable, CustomStringConvertible {
    /// Where the feature is used, as a JSON path of the form's document (version 2).
    public let path: String
    /// What it is, in French.
    public let description: String
}

extension Form {
    /// The features of this form that the renderer does not draw yet, each at its first use;
    /// empty when the form can be drawn.
    ///
    /// The renderer draws every font written in WinAnsiEncoding (Helvetica, Times, Courier and
    /// their bold and italics), any alignment, runs, colours, pages 1 to `Form.maximumPages` of
    /// their own sizes, every kind of reason box and mark, per-reason offsets and reasons printed but not
    /// offered. Left: Symbol and ZapfDingbats (their page images need their own encodings
    /// mapped to the URW fonts' glyphs), and JPEG pictures (PNG ones are drawn).
    public var awaitingRenderer: [PendingFeature] {
        var found: [PendingFeature] = []
        var seen = Set<String>()
        func note(_ path: String, _ description: String) {
            if seen.insert(description).inserted { found.append(PendingFeature(path: path, description: description)) }
        }
        func check(_ font: TextFont, _ path: String) {
            if !font.usesWinAnsi { note(path, "police \(font.rawValue)") }
        }
        func check(_ text: RichText, _ path: String) {
            for (index, run) in text.runs.enumerated() {
                if let font = run.font { check(font, text.runs.count == 1 ? "\(path).font" : "\(path)[\(index)].font") }
            }
        }
        for (path, block) in textBlocks {
            check(block.font, "\(path).font")
            check(block.content, "\(path).text")
        }
        let layout = reasonLayout
        if layout.box == .text { check(layout.boxFont, "reasonLayout.boxFont") }
        check(layout.markFont, "reasonLayout.markFont")
        check(layout.textFont, "reasonLayout.textFont")
        check(layout.noteFont, "reasonLayout.noteFont")
        for (index, reason) in printedReasons.enumerated() {
            check(reason.labelText, "reasons[\(index)].label")
            if let note = reason.noteText { check(note, "reasons[\(index)].note") }
        }
        if let index = images.firstIndex(where: { $0.format == .jpeg }) { note("images[\(index)]", "images JPEG") }
        return found
    }
}
