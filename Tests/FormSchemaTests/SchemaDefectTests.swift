import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// What an administrator writing forms from docs/forms.md alone found (issue 28): a leading
/// space dropped, a squeezed line wrapped again, a label running into a fixed text unseen.
@Suite("Schema defects found by an administrator")
struct SchemaDefectTests {
    static func block(_ text: String, align: TextBlock.Alignment?, width: Double?) -> TextBlock {
        TextBlock(
            content: RichText(text), x: 50, y: 700, size: 10, font: .helvetica, width: width, leading: 12, align: align)
    }

    /// Helvetica's space at 10 pt: 278 thousandths of an em.
    static let space = 2.78

    @Test(arguments: [TextBlock.Alignment.left, .justify], [nil, 300.0])
    func aLeadingSpaceAfterANewLineIndentsItsLineByTheSpace(align: TextBlock.Alignment, width: Double?) throws {
        let lines = Self.block("soins ne pouvant\n être assurés", align: align, width: width).lines
        try #require(lines.count == 2)
        #expect(abs(lines[1].pieces[0].x - (50 + Self.space)) < 1e-9, "«\(lines[1].text)» at \(lines[1].pieces[0].x)")
        #expect(lines[1].text == "être assurés")
        #expect(
            abs(lines[1].width - (Self.space + Self.block("être assurés", align: nil, width: nil).lines[0].width))
                < 1e-9)
        #expect(lines[0].pieces[0].x == 50)
    }

    static let squeezable = "Déplacements pour des consultations, examens, actes de prévention et soins"

    /// Where the line's last piece ends, its word spacing included.
    static func end(of line: TextLine) -> Double {
        let piece = line.pieces.last!
        return piece.x + piece.font.width(piece.bytes, size: piece.size) + Double(
            piece.bytes.filter { $0 == 0x20 }.count)
            * piece.wordSpacing
    }

    @Test func aJustifiedLineGivenByANewLineSlightlyTooWideIsSqueezedNotWrapped() throws {
        let natural = try #require(Self.block(Self.squeezable, align: nil, width: nil).lines.first).width
        let width = natural - 2
        let lines = Self.block(Self.squeezable + "\nsuite", align: .justify, width: width).lines
        try #require(lines.count == 2, "\(lines.map(\.text))")
        #expect(lines[0].pieces.allSatisfy { $0.wordSpacing < 0 }, "\(lines[0].pieces.map(\.wordSpacing))")
        let spaces = Double(lines[0].pieces.flatMap(\.bytes).filter { $0 == 0x20 }.count)
        #expect(Self.end(of: lines[0]) <= 50 + width + 1e-9)
        #expect(Self.end(of: lines[0]) >= 50 + width - 0.01 * spaces)
        // Also as the block's last line.
        #expect(Self.block(Self.squeezable, align: .justify, width: width).lines.count == 1)
    }

    @Test func aJustifiedLineTooWideToSqueezeStillWrapsAndOthersAlignmentsNeverSqueeze() throws {
        let natural = try #require(Self.block(Self.squeezable, align: nil, width: nil).lines.first).width
        let spaces = Double(Self.squeezable.filter { $0 == " " }.count)
        // A space shrinks by a third at most.
        #expect(
            Self.block(Self.squeezable, align: .justify, width: natural - spaces * Self.space / 3 - 0.1).lines.count
                == 2)
        #expect(Self.block(Self.squeezable, align: .left, width: natural - 2).lines.count == 2)
    }

    static func load(_ change: (inout [String: Any]) -> Void) throws -> Form {
        var json = try documentedExample()
        change(&json)
        return try FormCatalog.decodeForm(try jsonData(json), source: "sortie.json")
    }

    static func appendText(_ text: [String: Any]) -> (inout [String: Any]) -> Void {
        { json in json["texts"] = (json["texts"] as! [[String: Any]]) + [text] }
    }

    /// The documented example's `sante` label is at (76, 560), 11 pt.
    @Test func aFixedTextRunningIntoAReasonsLabelIsRefusedNamingBoth() throws {
        let error = try #require(throws: FormError.self) {
            _ = try Self.load(Self.appendText(["text": "Voir au dos", "x": 200, "y": 563, "size": 9]))
        }
        #expect(error.path == "reasons[1].label")
        #expect(error.message.contains("texts[3]"), "\(error.message)")
        // Beside the label's end, or between two reasons: no overlap.
        _ = try Self.load(Self.appendText(["text": "Voir au dos", "x": 450, "y": 560, "size": 9]))
        _ = try Self.load(Self.appendText(["text": "Voir au dos", "x": 200, "y": 573, "size": 9]))
    }

    @Test func aFixedTextRunningIntoAReasonsNoteIsRefusedNamingBoth() throws {
        let error = try #require(throws: FormError.self) {
            _ = try Self.load(Self.appendText(["text": "Voir au dos", "x": 100, "y": 519, "size": 9]))
        }
        #expect(error.path == "reasons[2].note")
        #expect(error.message.contains("texts[3]"), "\(error.message)")
    }
}
