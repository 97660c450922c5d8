import AttestationKit

/// Fixed text laid out as the renderer draws it and as the load-time checks measure it, from
/// one computation in three steps (`TextMeasure`): the runs cut into paragraphs (`\n`, in any
/// run) of words, the spaces before a paragraph's first word kept as an indent; with a width,
/// greedy word wrap at spaces (a word wider than the width stays whole on its line; the first
/// line narrower by the block's indent; a justified paragraph slightly too wide stays one line,
/// squeezed); each line placed by the block's alignment, a justified line stretched (or
/// squeezed) through its word spacing; runs (a
/// superscript, another font or size) as pieces with their own font, size and baseline.
///
/// Widths are the standard fonts' AFM widths (`TextFont`), summed as integers in the
/// block's own font and size and scaled once, as libharu measures a text: for a plain block
/// every number is the one the renderer of the November 2020 forms computed, so their pages
/// keep their bytes.

/// One line of a laid-out text block.
public struct TextLine: Sendable, Equatable {
    /// Left to right, each in one font, size and baseline; empty for an empty line.
    public let pieces: [TextPiece]
    /// The line's natural width in points, before justification stretches it.
    public let width: Double
    /// The room the line takes: its natural width, less what the spaces of a squeezed
    /// justified line give up.
    public let squeezedWidth: Double
    /// The baseline of the line (a piece with a rise is above or below it).
    public let baseline: Double
    /// The line's text, for messages.
    public var text: String { pieces.map(\.text).joined() }
}

/// A piece of a line in one font, size and baseline.
public struct TextPiece: Sendable, Equatable {
    public let font: TextFont
    public let size: Double
    /// Start of the piece's baseline, the run's rise included.
    public let x: Double
    public let y: Double
    /// The text in the font's encoding: Windows-1252, or Symbol's and ZapfDingbats' own.
    public let bytes: [UInt8]
    /// Points added to the width of every space (a justified line's stretch); 0 otherwise.
    public let wordSpacing: Double
    /// The characters, one per byte.
    public let text: String
}

extension TextBlock {
    /// The block's lines, placed on the page.
    public var lines: [TextLine] { TextMeasure.layout(self) }

    /// Distance between baselines: `leading`, else 1.15 × size.
    public var lineHeight: Double { leading ?? size * 1.15 }
}

extension Reason {
    /// The label as printed, superscripts included: the number first when the form prints
    /// numbers ("1. ").
    public var printedLabelText: RichText {
        guard let printedNumber else { return labelText }
        return RichText(runs: [TextRun(text: "\(printedNumber). ")] + labelText.runs)
    }
}

extension ReasonLayout {
    /// A reason's label and note as text blocks: the label at `textX`, its baseline `textDY`
    /// (the reason's own, else the layout's) above the reason's `y`; the note `noteGap` below
    /// the label's last line.
    ///
    /// With `boxInline`, the label's first line starts at `textX`, after the box, and its
    /// other lines and the note come back to `boxX`; every line ends at `textX + textWidth`.
    public func textBlocks(of reason: Reason) -> (label: TextBlock, note: TextBlock?) {
        let left = boxInline ? boxX : textX
        let width = textX + textWidth - left
        let label = TextBlock(
            content: reason.printedLabelText, x: left, y: reason.y + textDY(of: reason), size: textSize,
            font: textFont, width: width, leading: textLeading, align: textAlign, page: reason.page,
            firstLineIndent: textX - left)
        guard let noteText = reason.noteText else { return (label, nil) }
        let lastBaseline = label.y - Double(max(1, label.lines.count) - 1) * textLeading
        let note = TextBlock(
            content: noteText, x: left, y: lastBaseline - noteGap, size: noteSize, font: noteFont,
            width: width, leading: noteLeading, align: textAlign, page: reason.page)
        return (label, note)
    }

    /// The text box of a reason (`box` is `text`): `boxText` in `boxFont` at `boxSize`, its
    /// baseline at the reason's `y` plus `boxDY`.
    public func boxTextBlock(of reason: Reason) -> TextBlock? {
        guard box == .text, let boxText else { return nil }
        return TextBlock(
            content: RichText(boxText), x: boxX, y: reason.y + boxDY(of: reason), size: boxSize, font: boxFont,
            page: reason.page)
    }

    /// The mark of a chosen reason: `markText` in `markFont` at `markSize`, from `markX` on the
    /// reason's `y`.
    public func markBlock(of reason: Reason) -> TextBlock {
        TextBlock(content: RichText(markText), x: markX, y: reason.y, size: markSize, font: markFont, page: reason.page)
    }
}

enum TextMeasure {
    /// Rounding slack in comparisons of lengths, in points.
    static let tolerance = 0.01

    /// A part of a word, or a space, in one run's font, size and rise.
    private struct Segment {
        var scalars: [Unicode.Scalar]
        var bytes: [UInt8]
        let font: TextFont
        let size: Double
        let rise: Double

        func continues(_ other: Segment) -> Bool { font == other.font && size == other.size && rise == other.rise }
    }

    /// A word: segments of one run each, with no space between them.
    private typealias Word = [Segment]

    /// A line's words before it is placed, and its natural width, its leading spaces included.
    private struct WrappedLine {
        let words: [Word]
        let width: Double
        /// The width of the spaces that start the line's paragraph, kept as an indent.
        var lead = 0.0
    }

    /// A length as the renderer sums it: glyph units of the block's own font and size, added
    /// as integers then scaled once (as libharu's text width), plus points of other runs.
    private struct Length {
        var units = 0
        var points = 0.0

        func value(size: Double) -> Double { Double(units) * size / 1000 + points }

        static func + (a: Length, b: Length) -> Length { Length(units: a.units + b.units, points: a.points + b.points) }
    }

    /// The text cut into paragraphs (at `\n`) of words (at spaces), a word running on across
    /// runs when no space separates them (`sanitaire` and its superscript `1`).
    private struct Paragraphs {
        var list: [[Word]] = [[]]
        /// The spaces that start each paragraph, before its first word.
        var leads = [0]
        /// Whether the next segment continues the last word.
        var inWord = false

        mutating func startParagraph() {
            list.append([])
            leads.append(0)
            inWord = false
        }

        mutating func endWord() { inWord = false }

        mutating func append(_ segment: Segment) {
            guard !segment.bytes.isEmpty else { return }
            if inWord, var word = list[list.count - 1].popLast() {
                word.append(segment)
                list[list.count - 1].append(word)
            } else {
                list[list.count - 1].append([segment])
            }
            inWord = true
        }
    }

    static func layout(_ block: TextBlock) -> [TextLine] {
        let wrapped = wrap(paragraphs(of: block), block: block)
        return wrapped.enumerated().map { index, line in
            place(line, index: index, isLast: index == wrapped.count - 1, block: block)
        }
    }

    /// The block's runs as paragraphs of words, each with the number of spaces it starts with.
    private static func paragraphs(of block: TextBlock) -> [(lead: Int, words: [Word])] {
        var paragraphs = Paragraphs()
        for run in block.content.runs {
            let font = run.font ?? block.font
            let size = run.size ?? block.size
            for (index, part) in run.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { paragraphs.startParagraph() }
                // Refused at load time (FormBuilder.richText); measured as nothing here.
                guard let bytes = font.encode(String(part)) else { continue }
                var current = Segment(scalars: [], bytes: [], font: font, size: size, rise: run.rise)
                // One byte per character in every standard font's encoding.
                for (scalar, byte) in zip(part.unicodeScalars, bytes) {
                    if byte == 0x20, current.bytes.isEmpty, paragraphs.list[paragraphs.list.count - 1].isEmpty {
                        // A space before a paragraph's first word is kept, as an indent (the
                        // blanks indent a line so); between words, spaces are one.
                        paragraphs.leads[paragraphs.leads.count - 1] += 1
                    } else if byte == 0x20 {
                        paragraphs.append(current)
                        paragraphs.endWord()
                        (current.scalars, current.bytes) = ([], [])
                    } else {
                        current.scalars.append(scalar)
                        current.bytes.append(byte)
                    }
                }
                paragraphs.append(current)
            }
        }
        return Array(zip(paragraphs.leads, paragraphs.list))
    }

    /// The length of a word as the renderer measures it.
    private static func length(_ word: Word, block: TextBlock) -> Length {
        word.reduce(Length()) { total, segment in
            if segment.font == block.font, segment.size == block.size {
                return total + Length(units: segment.bytes.reduce(0) { $0 + Int(block.font.metrics.widths[Int($1)]) })
            }
            return total + Length(points: segment.font.width(segment.bytes, size: segment.size))
        }
    }

    /// A space shrinks by a third of its width at most in a squeezed justified line (TeX's
    /// shrink of an interword space).
    static let squeezableSpace = 1.0 / 3

    /// Each paragraph as one line without a width; with one, greedy wrap at spaces to it, the
    /// block's first line narrower by its indent. A justified paragraph slightly wider than its
    /// room stays one line, to be squeezed (`place`).
    private static func wrap(_ paragraphs: [(lead: Int, words: [Word])], block: TextBlock) -> [WrappedLine] {
        let space = Length(units: Int(block.font.metrics.widths[0x20]))
        var wrapped: [WrappedLine] = []
        for (leadCount, words) in paragraphs {
            let lead = Length(units: space.units * leadCount)
            let whole = words.enumerated().reduce(lead) {
                $0 + ($1.offset == 0 ? Length() : space) + length($1.element, block: block)
            }
            guard let width = block.width else {
                wrapped.append(
                    WrappedLine(words: words, width: whole.value(size: block.size), lead: lead.value(size: block.size)))
                continue
            }
            let room = width - (wrapped.isEmpty ? block.firstLineIndent : 0)
            let squeeze = Double(max(0, words.count - 1)) * space.value(size: block.size) * squeezableSpace
            if block.align == .justify, words.count > 1, whole.value(size: block.size) <= room + squeeze {
                wrapped.append(
                    WrappedLine(words: words, width: whole.value(size: block.size), lead: lead.value(size: block.size)))
                continue
            }
            var line: [Word] = []
            var lineLength = lead
            var lineLead = lead.value(size: block.size)
            for word in words {
                let room = width - (wrapped.isEmpty ? block.firstLineIndent : 0)
                let candidate =
                    line.isEmpty
                    ? lineLength + length(word, block: block) : lineLength + space + length(word, block: block)
                if !line.isEmpty, candidate.value(size: block.size) > room {
                    wrapped.append(WrappedLine(words: line, width: lineLength.value(size: block.size), lead: lineLead))
                    line = [word]
                    lineLength = length(word, block: block)
                    lineLead = 0
                } else {
                    line.append(word)
                    lineLength = candidate
                }
            }
            wrapped.append(WrappedLine(words: line, width: lineLength.value(size: block.size), lead: lineLead))
        }
        return wrapped
    }

    /// A line's words as pieces on the page: its start by the block's alignment within the
    /// room the line has, a justified line's stretch, its baseline.
    private static func place(_ line: WrappedLine, index: Int, isLast: Bool, block: TextBlock) -> TextLine {
        let spaceSegment = Segment(scalars: [" "], bytes: [0x20], font: block.font, size: block.size, rise: 0)
        var segments: [Segment] = []
        for (position, word) in line.words.enumerated() {
            for segment in (position == 0 ? [] : [spaceSegment]) + word {
                if let last = segments.last, last.continues(segment) {
                    segments[segments.count - 1].scalars += segment.scalars
                    segments[segments.count - 1].bytes += segment.bytes
                } else {
                    segments.append(segment)
                }
            }
        }
        let indent = index == 0 ? block.firstLineIndent : 0
        var x = block.x + indent
        var wordSpacing = 0.0
        if let width = block.width {
            let room = width - indent
            switch block.align ?? .left {
            case .left: break
            case .center: x += (room - line.width) / 2
            case .right: x += room - line.width
            case .justify:
                let spaces = line.words.count - 1
                // In hundredths of a point, rounded down, as the PDF writes it (`Tw`): the
                // picture of the page places the words where a PDF reader does, and the line
                // never ends past `width`. Negative for a line given by `\n` slightly wider than
                // the room (`wrap`), the block's last line included.
                if spaces > 0, !isLast || line.width > room {
                    let spacing = ((room - line.width) / Double(spaces) * 100).rounded(.down) / 100
                    wordSpacing = line.width > room ? spacing : max(0, spacing)
                }
            }
        }
        x += line.lead
        let baseline = block.y - Double(index) * block.lineHeight
        var pieces: [TextPiece] = []
        for segment in segments {
            pieces.append(
                TextPiece(
                    font: segment.font, size: segment.size, x: x, y: baseline + segment.rise, bytes: segment.bytes,
                    wordSpacing: wordSpacing,
                    text: String(String.UnicodeScalarView(segment.scalars))))
            let spaces = segment.bytes.filter { $0 == 0x20 }.count
            x += segment.font.width(segment.bytes, size: segment.size) + Double(spaces) * wordSpacing
        }
        let spaces = Double(max(0, line.words.count - 1))
        return TextLine(
            pieces: pieces, width: line.width, squeezedWidth: line.width + spaces * min(0, wordSpacing),
            baseline: baseline)
    }
}
