import AttestationKit
import FormSchema

/// Drawing items written as PDF content-stream operators: the form's fixed drawing, once per
/// form, and the shapes an attestation adds (its text goes through libharu, AttestationRenderer).
/// The graphics state is tracked so that an operator is written only when it changes something.
struct PDFContentWriter {
    var content = ContentStream()
    /// The page's resource names of the standard fonts ("F1", …).
    let fontNames: [TextFont: String]

    /// What the operators written so far left set; nil when unknown (then the next item sets it).
    private var lineWidth: Double?
    private var dash: [Double]?
    private var strokeColour: Colour?
    private var fillColour: Colour?
    private var font: (font: TextFont, size: Double)?
    /// PDF's default at the start of a page, and what the content after this one expects.
    private var wordSpacing = 0.0
    private var inText = false
    /// Rectangles added to the current path, stroked together when something else comes.
    private var pathOpen = false

    /// `startOfPage`: the first content of a page, where PDF's defaults hold (line width 1,
    /// solid lines, black); otherwise every state is set before its first use.
    init(fontNames: [TextFont: String], startOfPage: Bool) {
        self.fontNames = fontNames
        if startOfPage { (lineWidth, dash, strokeColour, fillColour) = (1, [], .black, .black) }
    }

    /// Standard-font text, rectangles and lines; the Unicode font and the QR code are the
    /// document's own (AttestationRenderer), never part of a form's fixed drawing.
    mutating func draw(_ items: [DrawingItem]) {
        for item in items {
            switch item {
            case .text(let run):
                guard case .standard(let standard, let text) = run.text else {
                    preconditionFailure("Unicode text is written by the document, not by PDFContentWriter")
                }
                strokePath()
                if !inText {
                    content.append("BT\n")
                    inText = true
                }
                setFill(run.colour)
                if font == nil || font! != (standard, run.size) {
                    content.append("/\(fontNames[standard]!) ")
                    content.op(run.size, name: "Tf")
                    font = (standard, run.size)
                }
                if wordSpacing != run.wordSpacing {
                    content.op(run.wordSpacing, name: "Tw")
                    wordSpacing = run.wordSpacing
                }
                content.op(1, 0, 0, 1, run.x, run.y, name: "Tm")
                content.string(text)
                content.append(" Tj\n")
            case .rectangle(let rectangle):
                endText()
                if lineWidth != rectangle.lineWidth || dash != [] || strokeColour != rectangle.colour { strokePath() }
                setStroke(width: rectangle.lineWidth, dash: [], colour: rectangle.colour)
                content.op(rectangle.x, rectangle.y, rectangle.width, rectangle.height, name: "re")
                pathOpen = true
            case .line(let line):
                endText()
                strokePath()
                setStroke(width: line.lineWidth, dash: line.dash, colour: line.colour)
                content.op(line.x1, line.y1, name: "m")
                content.op(line.x2, line.y2, name: "l")
                content.append("S\n")
            case .qrCode, .reasonMarks, .picture:
                preconditionFailure("the QR code, marks and pictures are drawn by the document")
            }
        }
    }

    /// Closes what is open and puts back solid lines, black and no word spacing, for the
    /// content that follows.
    mutating func finish() -> ContentStream {
        if wordSpacing != 0 {
            content.op(0, name: "Tw")
            wordSpacing = 0
        }
        endText()
        strokePath()
        if dash != [] {
            content.append("[] 0 d\n")
            dash = []
        }
        setFill(.black)
        if strokeColour != .black {
            content.op(0, name: "G")
            strokeColour = .black
        }
        return content
    }

    private mutating func endText() {
        if inText {
            content.append("ET\n")
            inText = false
        }
    }

    private mutating func strokePath() {
        if pathOpen {
            content.append("S\n")
            pathOpen = false
        }
    }

    private mutating func setFill(_ colour: Colour) {
        guard fillColour != colour else { return }
        switch colour {
        case .gray(let level): content.op(level, name: "g")
        case .rgb(let red, let green, let blue): content.op(red, green, blue, name: "rg")
        }
        fillColour = colour
    }

    private mutating func setStroke(width: Double, dash newDash: [Double], colour: Colour) {
        if lineWidth != width {
            content.op(width, name: "w")
            lineWidth = width
        }
        if dash != newDash {
            content.append("[")
            for (index, length) in newDash.enumerated() {
                if index > 0 { content.append(" ") }
                content.number(length)
            }
            content.append("] 0 d\n")
            dash = newDash
        }
        if strokeColour != colour {
            switch colour {
            case .gray(let level): content.op(level, name: "G")
            case .rgb(let red, let green, let blue): content.op(red, green, blue, name: "RG")
            }
            strokeColour = colour
        }
    }
}
