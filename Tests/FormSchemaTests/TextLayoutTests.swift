import AttestationKit
import TestSupport
import Testing

@testable import FormSchema

/// Fixed text laid out (TextLayout.swift): what the renderer draws and the load-time checks
/// measure, from one computation.
@Suite("Text layout")
struct TextLayoutTests {
    static let paragraph =
        "Les personnes souhaitant bénéficier de l’une de ces exceptions doivent se munir s’il y a lieu, "
        + "lors de leurs déplacements hors de leur domicile, d’un document leur permettant de justifier que le déplacement "
        + "considéré entre dans le champ de l’une de ces exceptions."

    /// Where a piece's ink ends: its start, its glyphs' widths and its stretched spaces.
    static func end(of piece: TextPiece) -> Double {
        piece.x + piece.font.width(piece.bytes, size: piece.size) + Double(piece.bytes.filter { $0 == 0x20 }.count)
            * piece.wordSpacing
    }

    static func block(
        _ text: RichText, align: TextBlock.Alignment?, width: Double? = 300, font: StandardFont = .helvetica
    ) -> TextBlock {
        TextBlock(
            content: text, x: 50, y: 700, size: 10, font: .standard(font), width: width, leading: 12, align: align)
    }

    /// Within a hundredth of a point a space: the word spacing is written so in the PDF.
    static func stretched(_ line: TextLine, to edge: Double) -> Bool {
        let spaces = Double(line.pieces.flatMap(\.bytes).filter { $0 == 0x20 }.count)
        let end = Self.end(of: line.pieces.last!)
        return end <= edge + 1e-9 && end >= edge - 0.01 * spaces
    }

    @Test func aJustifiedBlockStretchesEveryLineButItsLastToItsWidth() throws {
        let lines = Self.block(RichText(Self.paragraph), align: .justify).lines
        try #require(lines.count >= 3)
        for line in lines.dropLast() {
            let last = try #require(line.pieces.last)
            #expect(Self.stretched(line, to: 350), "«\(line.text)» ends at \(Self.end(of: last))")
            #expect(line.pieces.allSatisfy { $0.wordSpacing > 0 }, "«\(line.text)»")
            #expect(line.width < 300)
        }
        let last = try #require(lines.last)
        #expect(last.pieces.allSatisfy { $0.wordSpacing == 0 })
        #expect(last.pieces[0].x == 50)
    }

    /// The blanks' paragraphs end with `\n` and are justified to their last word but one.
    @Test func aLineEndedByANewLineIsJustifiedUnlessItIsTheBlocksLast() throws {
        let lines = Self.block(RichText("un deux trois\nquatre cinq"), align: .justify).lines
        try #require(lines.count == 2)
        #expect(Self.stretched(lines[0], to: 350))
        #expect(lines[1].pieces[0].wordSpacing == 0)
        #expect(lines[1].baseline == 688)
    }

    @Test func aRightAlignedLineEndsAtTheBlocksRightEdge() throws {
        let lines = Self.block(RichText("Signature :\nFait à Paris"), align: .right).lines
        for line in lines {
            #expect(abs(Self.end(of: try #require(line.pieces.last)) - 350) < 1e-9, "«\(line.text)»")
            #expect(line.pieces[0].x == 50 + 300 - line.width)
        }
    }

    @Test func aCentredLineHasAsMuchRoomOnEachSide() throws {
        let line = try #require(Self.block(RichText("ATTESTATION"), align: .center).lines.first)
        let piece = try #require(line.pieces.first)
        #expect(abs((piece.x - 50) - (350 - Self.end(of: piece))) < 1e-9)
    }

    /// Times-Bold's own widths from its AFM (A 722, T 667, E 667, S 556, I 389, O 778, N 722
    /// thousandths of an em), not Helvetica's.
    @Test func aTimesLineIsMeasuredWithTimesWidths() throws {
        let line = try #require(
            Self.block(RichText("ATTESTATION"), align: nil, width: nil, font: .timesBold).lines.first)
        #expect(abs(line.width - 7224 * 10 / 1000.0) < 1e-9)
        #expect(line.pieces.map(\.font) == [.standard(.timesBold)])
    }

    /// "d’urgence sanitaire¹ :": the footnote mark is a piece of its own size, raised, starting
    /// where the text before it ends; the rest of the line goes on after it, in the block's type.
    @Test func aSuperscriptIsAPieceRaisedAfterTheTextBeforeIt() throws {
        let text = RichText(runs: [
            TextRun(text: "d’urgence sanitaire"), TextRun(text: "1", size: 6, rise: 3.5), TextRun(text: " :"),
        ])
        let line = try #require(Self.block(text, align: nil, width: nil).lines.first)
        try #require(line.pieces.count == 3)
        let (before, mark, after) = (line.pieces[0], line.pieces[1], line.pieces[2])
        #expect(before.text == "d’urgence sanitaire" && before.y == 700 && before.size == 10)
        #expect(mark.text == "1" && mark.size == 6 && mark.y == 703.5)
        #expect(abs(mark.x - Self.end(of: before)) < 1e-9)
        #expect(after.text == " :" && after.y == 700 && abs(after.x - Self.end(of: mark)) < 1e-9)
        #expect(abs(line.width - (Self.end(of: after) - 50)) < 1e-9)
    }

    /// A superscript inside a justified line moves with the stretched spaces before it.
    @Test func aSuperscriptInAJustifiedLineFollowsTheStretchedSpaces() throws {
        let text = RichText(runs: [
            TextRun(text: Self.paragraph), TextRun(text: "2", size: 6, rise: 3.5), TextRun(text: " " + Self.paragraph),
        ])
        let lines = Self.block(text, align: .justify).lines
        let line = try #require(lines.first { $0.pieces.contains { $0.text == "2" } })
        try #require(line != lines.last)
        for (left, right) in zip(line.pieces, line.pieces.dropFirst()) {
            #expect(abs(right.x - Self.end(of: left)) < 1e-9)
        }
        #expect(Self.stretched(line, to: 350))
    }

    /// "sanitaire¹" is one word: when the mark does not fit, the word goes to the next line
    /// with it, never leaving the mark alone at the start of a line.
    @Test func aWordIsNeverBrokenBetweenItsRuns() throws {
        let text = RichText(runs: [TextRun(text: "dans le cadre sanitaire"), TextRun(text: "1", size: 6, rise: 3)])
        let fits = try #require(Self.block("dans le cadre sanitaire", align: nil, width: nil).lines.first).width
        let lines = Self.block(text, align: .left, width: fits + 0.5).lines
        #expect(lines.map(\.text) == ["dans le cadre", "sanitaire1"])
        #expect(lines[1].pieces.map(\.size) == [10, 6])
    }

    /// The 2020 blanks do not space their reasons evenly: a reason's own textDY and boxDY
    /// move its label and box, the others keep the layout's.
    @Test func aReasonsOwnOffsetsMoveItsLabelAndBox() throws {
        let form = try #require(FormCatalog.builtIn.anyForm(id: "couvre-feu-2020-10-17"))
        let layout = form.reasonLayout
        let travail = try #require(form.printedReasons.first { $0.code == "travail" })
        let famille = try #require(form.printedReasons.first { $0.code == "famille" })
        #expect(layout.textBlocks(of: travail).label.y == 539 + 1.6)
        #expect(layout.boxTextBlock(of: travail)?.y == 539 + 1.6)
        #expect(layout.textBlocks(of: famille).label.y == 441 + layout.textDY)
        #expect(layout.boxTextBlock(of: famille)?.text == "[ ]")
        #expect(layout.boxTextBlock(of: famille)?.font == .standard(.timesRoman))
        #expect(layout.markBlock(of: famille).y == 441 && layout.markBlock(of: famille).x == 73)
    }

    @Test func aNoteStartsItsGapBelowTheLabelsLastLine() throws {
        let form = try FormCatalog.decodeForm(try jsonData(try documentedExample()), source: "sortie.json")
        let famille = try #require(form.reason(code: "famille"))
        let (label, note) = form.reasonLayout.textBlocks(of: famille)
        let block = try #require(note)
        #expect(block.y == label.lines.last!.baseline - form.reasonLayout.noteGap)
        #expect(block.size == form.reasonLayout.noteSize)
    }
}
