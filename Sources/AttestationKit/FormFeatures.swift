/// What a form asks of the renderer beyond what it draws today.
///
/// The schema (version 2) says more than the renderer of the November 2020 forms draws: other
/// fonts, justified text, superscripts, text boxes, colour, page 2, pictures… A form using any
/// of it is refused when an administrator adds it (fail closed: never a page drawn otherwise
/// than its file says), and a built-in one waits in `FormCatalog.pendingForms`. The renderer
/// that draws them lifts the corresponding lines here.
public struct PendingFeature: Sendable, Hashable, CustomStringConvertible {
    /// Where the feature is used, as a JSON path of the form's document (version 2).
    public let path: String
    /// What it is, in French.
    public let description: String
}

extension Form {
    /// The features of this form that the renderer does not draw yet, each at its first use;
    /// empty when the form can be drawn.
    public var awaitingRenderer: [PendingFeature] {
        var found: [PendingFeature] = []
        var seen = Set<String>()
        func note(_ path: String, _ description: String) {
            if seen.insert(description).inserted { found.append(PendingFeature(path: path, description: description)) }
        }
        func check(_ block: TextBlock, _ path: String) {
            if block.font.helveticaStyle == nil { note("\(path).font", "police \(block.font.rawValue)") }
            if let align = block.align, align != .left && align != .center { note("\(path).align", "texte aligné « \(align.rawValue) »") }
            if !block.content.isPlain { note("\(path).text", "morceaux de texte (exposants, autre police ou taille)") }
            if let color = block.color, color != .black { note("\(path).color", "couleur de texte") }
            if block.page != 1 { note("\(path).page", "texte en page 2") }
        }
        for (path, block) in textBlocks { check(block, path) }
        for (index, slot) in fields.enumerated() {
            if slot.font != .helvetica { note("fields[\(index)].font", "police de champ \(slot.font.rawValue)") }
            if slot.page != 1 { note("fields[\(index)].page", "champ en page 2") }
        }
        if let second = secondPage, second != page { note("secondPage", "page 2 d’un autre format que la page 1") }
        let layout = reasonLayout
        if layout.box != .square { note("reasonLayout.box", "case de motif « \(layout.box.rawValue) »") }
        if layout.markFont != .helvetica || layout.markText != "x" { note("reasonLayout.markText", "marque autre qu’un x en Helvetica") }
        if layout.textFont != .helvetica { note("reasonLayout.textFont", "police de motif \(layout.textFont.rawValue)") }
        if layout.noteFont != .helvetica { note("reasonLayout.noteFont", "police de note \(layout.noteFont.rawValue)") }
        if layout.textAlign != .left { note("reasonLayout.textAlign", "motifs alignés « \(layout.textAlign.rawValue) »") }
        for (index, reason) in printedReasons.enumerated() {
            let path = "reasons[\(index)]"
            if reason.textDY != nil || reason.boxDY != nil { note("\(path).textDY", "décalage propre à un motif (textDY, boxDY)") }
            if !reason.labelText.isPlain || reason.noteText.map({ !$0.isPlain }) == true {
                note("\(path).label", "morceaux de texte dans un motif (exposants)")
            }
            if reason.page != 1 { note("\(path).page", "motif en page 2") }
            if !reason.offered { note("\(path).offered", "motif imprimé mais non proposé (contexte)") }
        }
        if !images.isEmpty { note("images", "images") }
        return found
    }
}
