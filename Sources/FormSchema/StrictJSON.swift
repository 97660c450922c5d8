import AttestationKit
import Foundation

/// JSON decoding for the files an administrator writes by hand: strict JSON (RFC 8259), with
/// the line and column of a syntax error, and every key the target type does not know refused,
/// so that a typo in a form (`"lable"`) is an error instead of a field silently left out.
///
/// The syntax is read here, by hand, before Foundation decodes: Foundation's parser on Linux
/// (swift-corelibs-foundation, Swift 6.3) accepts a comma after the last element of an object
/// or array, keeps the last of two equal keys, and names neither the line nor the column of
/// what it refuses, in English (`StrictJSONTests` shows each). Reading the bytes once more costs
/// about as much as Foundation's own parse, for files of a few kilobytes read at start-up.
///
/// Codable ignores unknown keys; rather than hand-writing every `init(from:)`, the decoded value
/// is encoded again and any key of the input missing from that round trip is unknown.
public enum StrictJSON {
    /// The JSON path of the problem (`reasons[2].label`), a French message, and where the
    /// problem is in the file when that is known.
    public struct Failure: Error, Sendable, Equatable {
        public let path: String
        public let message: String
        public var line: Int?
        public var column: Int?

        /// For decoders of other modules' types, which say in French what a value should be.
        public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
            self.path = path
            self.message = message
            self.line = line
            self.column = column
        }
    }

    /// Where each value of a document starts, by JSON path (`""` is the whole document).
    public struct Positions: Sendable {
        /// The document, for columns: one is counted only for a message (counting one for every
        /// value scanned its line again each time, a tenth of a sanitized server's start).
        var bytes: [UInt8] = []
        var starts: [String: (line: Int, lineStart: Int, offset: Int)] = [:]

        public func of(_ path: String) -> (line: Int, column: Int)? {
            guard let start = starts[path] else { return nil }
            return (start.line, StrictJSON.column(in: bytes, lineStart: start.lineStart, at: start.offset))
        }
    }

    /// The column of `position` on the line starting at `lineStart`, counted in characters from 1.
    static func column(in bytes: [UInt8], lineStart: Int, at position: Int) -> Int {
        var count = 0
        var i = lineStart
        while i < position {
            if bytes[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count + 1
    }

    /// The deepest nesting accepted: a form is about five levels deep; a file of a thousand
    /// `[` must not exhaust the stack of the parser below.
    public static let maximumDepth = 64

    public static func decode<T: Codable>(_ type: T.Type, from data: Data) throws(Failure) -> T {
        try decode(type, from: data, parsed: parse(data))
    }

    /// Decodes a document already checked by `parse`.
    static func decode<T: Codable>(_ type: T.Type, from data: Data, parsed: Document) throws(Failure) -> T {
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: parsed.body(of: data))
        } catch let error as DecodingError {
            throw locate(describe(error), in: parsed.positions)
        } catch let failure as Failure {
            // Thrown by the decoders of this module's types, in French, at their path.
            throw locate(failure, in: parsed.positions)
        } catch {
            throw Failure(path: "", message: "JSON illisible.")
        }
        let known: JSONValue
        do {
            known = try parse(JSONEncoder().encode(value)).value
        } catch {
            throw Failure(path: "", message: "JSON illisible.")
        }
        if let path = unknownKey(in: parsed.value, knownFrom: known, path: "") {
            throw locate(Failure(path: path, message: "clé inconnue."), in: parsed.positions)
        }
        return value
    }

    /// A failure with the line and column of its path, when the document has that path.
    static func locate(_ failure: Failure, in positions: Positions) -> Failure {
        var located = failure
        var path = failure.path
        // A missing key has no position: its object's is given.
        while located.line == nil {
            if let start = positions.of(path) {
                (located.line, located.column) = (start.line, start.column)
            } else if let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) {
                path = String(path[..<cut])
                continue
            } else if !path.isEmpty {
                path = ""
                continue
            }
            break
        }
        return located
    }

    // MARK: - The syntax

    /// A parsed JSON value: enough to compare keys and read a few values before decoding.
    indirect enum JSONValue: Equatable {
        case object([(key: String, value: JSONValue)])
        case array([JSONValue])
        case string(String)
        case number(String)
        case bool(Bool)
        case null

        static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
            switch (lhs, rhs) {
            case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
            case (.array(let a), .array(let b)): a == b
            case (.string(let a), .string(let b)): a == b
            case (.number(let a), .number(let b)): a == b
            case (.bool(let a), .bool(let b)): a == b
            case (.null, .null): true
            default: false
            }
        }

        subscript(key: String) -> JSONValue? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
    }

    /// A document read by `parse`: its value, where each value starts, and whether it began
    /// with a byte order mark (which Foundation is not given).
    struct Document {
        let value: JSONValue
        let positions: Positions
        let bomLength: Int

        func body(of data: Data) -> Data { bomLength == 0 ? data : data.dropFirst(bomLength) }
    }

    /// Reads `data` as strict JSON: one value, nothing after it but whitespace; no comment, no
    /// comma after a last element, no key twice in an object, no control character in a string,
    /// valid UTF-8. A UTF-8 byte order mark at the start is skipped (Windows editors write it).
    static func parse(_ data: Data) throws(Failure) -> Document {
        var parser = Parser(bytes: [UInt8](data))
        return try parser.document()
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        /// Index of the first byte of the current line, for columns.
        var lineStart = 0
        var positions = Positions()

        init(bytes: [UInt8]) {
            self.bytes = bytes
            positions.bytes = bytes
        }

        mutating func document() throws(Failure) -> Document {
            var bom = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { (index, lineStart, bom) = (3, 3, 3) }
            skipWhitespace()
            guard index < bytes.count else { throw fail("document vide ; un objet JSON est attendu.", path: "") }
            let value = try parseValue(path: "", depth: 0)
            skipWhitespace()
            guard index == bytes.count else {
                throw fail("texte après la fin du document JSON \(shown()) ; un seul objet est attendu.", path: "")
            }
            return Document(value: value, positions: positions, bomLength: bom)
        }

        /// The column of `position`, counted in characters from 1.
        func column(at position: Int) -> Int {
            StrictJSON.column(in: bytes, lineStart: lineStart, at: position)
        }

        func fail(_ message: String, path: String, at position: Int? = nil) -> Failure {
            let at = position ?? index
            return Failure(path: path, message: message, line: line, column: column(at: min(at, bytes.count)))
        }

        /// The character at the current position, quoted, for messages.
        func shown() -> String {
            guard index < bytes.count else { return "(fin du fichier)" }
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            return "« \(text) »"
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        mutating func parseValue(path: String, depth: Int) throws(Failure) -> JSONValue {
            guard depth < StrictJSON.maximumDepth else {
                throw fail("imbrication trop profonde ; \(StrictJSON.maximumDepth) niveaux au plus.", path: path)
            }
            positions.starts[path] = (line, lineStart, index)
            guard index < bytes.count else {
                throw fail("fin du fichier inattendue ; une valeur est attendue.", path: path)
            }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject(path: path, depth: depth)
            case UInt8(ascii: "["): return try parseArray(path: path, depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString(path: path))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber(path: path))
            case UInt8(ascii: "t"):
                try literal("true", path: path)
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false", path: path)
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null", path: path)
                return .null
            case UInt8(ascii: "/"):
                throw fail("commentaire interdit ; le JSON n’en accepte pas.", path: path)
            default:
                throw fail(
                    "\(shown()) inattendu ; une valeur est attendue (objet, liste, texte entre guillemets droits, nombre, true, false ou null).",
                    path: path)
            }
        }

        mutating func literal(_ word: String, path: String) throws(Failure) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw fail(
                    "\(shown()) inattendu ; une valeur est attendue (true, false et null s’écrivent en minuscules).",
                    path: path)
            }
            index += expected.count
        }

        mutating func parseObject(path: String, depth: Int) throws(Failure) -> JSONValue {
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count else {
                    throw fail("fin du fichier dans un objet ; « } » est attendu.", path: path)
                }
                if bytes[index] == UInt8(ascii: "}") {
                    throw fail(
                        "virgule en trop avant « } » ; le JSON strict n’accepte pas de virgule après le dernier élément.",
                        path: path)
                }
                guard bytes[index] == UInt8(ascii: "\"") else {
                    throw fail("\(shown()) inattendu ; une clé entre guillemets droits est attendue.", path: path)
                }
                let keyStart = index
                let key = try parseString(path: path)
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                if members.contains(where: { $0.key == key }) {
                    throw fail(
                        "clé « \(key) » en double dans cet objet ; chaque clé une seule fois.", path: childPath,
                        at: keyStart)
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw fail("\(shown()) inattendu après la clé « \(key) » ; « : » est attendu.", path: childPath)
                }
                index += 1
                skipWhitespace()
                let value = try parseValue(path: childPath, depth: depth + 1)
                members.append((key, value))
                skipWhitespace()
                guard index < bytes.count else {
                    throw fail("fin du fichier dans un objet ; « } » est attendu.", path: path)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else {
                    throw fail("\(shown()) inattendu ; « , » ou « } » est attendu.", path: path)
                }
                index += 1
                return .object(members)
            }
        }

        mutating func parseArray(path: String, depth: Int) throws(Failure) -> JSONValue {
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count else {
                    throw fail("fin du fichier dans une liste ; « ] » est attendu.", path: path)
                }
                if bytes[index] == UInt8(ascii: "]") {
                    throw fail(
                        "virgule en trop avant « ] » ; le JSON strict n’accepte pas de virgule après le dernier élément.",
                        path: path)
                }
                elements.append(try parseValue(path: "\(path)[\(elements.count)]", depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else {
                    throw fail("fin du fichier dans une liste ; « ] » est attendu.", path: path)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else {
                    throw fail("\(shown()) inattendu ; « , » ou « ] » est attendu.", path: path)
                }
                index += 1
                return .array(elements)
            }
        }

        mutating func parseNumber(path: String) throws(Failure) -> String {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - first
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0 else {
                throw fail("nombre invalide ; un chiffre est attendu après « - ».", path: path)
            }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
                throw fail(
                    "nombre invalide : zéro en tête ; écrivez par exemple 7 ou 0.5.", path: path, at: integerStart)
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else {
                    throw fail("nombre invalide ; un chiffre est attendu après le point.", path: path)
                }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else {
                    throw fail("nombre invalide ; un exposant est attendu après « e ».", path: path)
                }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func parseString(path: String) throws(Failure) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            while true {
                guard index < bytes.count else {
                    throw fail("fin du fichier dans un texte ; le guillemet droit fermant est attendu.", path: path)
                }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    scalars.append(try parseEscape(path: path))
                case 0x00..<0x20:
                    throw fail(
                        byte == 0x0A
                            ? "saut de ligne dans un texte ; écrivez \\n, ou fermez le guillemet."
                            : "caractère de contrôle dans un texte ; écrivez-le \\uXXXX.", path: path)
                case 0x20..<0x80:
                    // A run of plain ASCII at once: appended scalar by scalar, the strings of
                    // the built-in forms were 7.5 % of `attestation-admin mint` (perf, debug).
                    let start = index
                    index += 1
                    while index < bytes.count, (0x20..<0x80).contains(bytes[index]),
                        bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\")
                    {
                        index += 1
                    }
                    scalars.append(contentsOf: String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars)
                default:
                    scalars.append(try parseUTF8(path: path))
                }
            }
        }

        mutating func parseEscape(path: String) throws(Failure) -> Unicode.Scalar {
            index += 1
            guard index < bytes.count else { throw fail("fin du fichier dans un texte.", path: path) }
            let letter = bytes[index]
            index += 1
            switch letter {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try hex4(path: path)
                if (0xD800...0xDBFF).contains(high) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else {
                        throw fail(
                            "demi-caractère \\u\(String(high, radix: 16, uppercase: true)) seul ; la seconde moitié (\\uDC00 à \\uDFFF) est attendue.",
                            path: path)
                    }
                    index += 2
                    let low = try hex4(path: path)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail("seconde moitié de caractère invalide ; \\uDC00 à \\uDFFF attendu.", path: path)
                    }
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
                }
                guard let scalar = Unicode.Scalar(high) else {
                    throw fail(
                        "demi-caractère \\u\(String(high, radix: 16, uppercase: true)) seul ; un caractère complet est attendu.",
                        path: path)
                }
                return scalar
            default:
                index -= 1
                throw fail(
                    "échappement \\\(shown()) inconnu ; acceptés : \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX.",
                    path: path)
            }
        }

        mutating func hex4(path: String) throws(Failure) -> UInt32 {
            guard bytes.count - index >= 4 else {
                throw fail("\\u suivi de 4 chiffres hexadécimaux attendu.", path: path)
            }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw fail("\\u suivi de 4 chiffres hexadécimaux attendu.", path: path)
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// One character of UTF-8 beyond ASCII; anything else is not UTF-8.
        mutating func parseUTF8(path: String) throws(Failure) -> Unicode.Scalar {
            let lead = bytes[index]
            let (count, minimum, initial): (Int, UInt32, UInt32) =
                switch lead {
                case 0xC2...0xDF: (1, 0x80, UInt32(lead & 0x1F))
                case 0xE0...0xEF: (2, 0x800, UInt32(lead & 0x0F))
                case 0xF0...0xF4: (3, 0x10000, UInt32(lead & 0x07))
                default: (0, 0, 0)
                }
            guard count > 0, bytes.count - index > count else { throw notUTF8(path: path) }
            var value = initial
            for offset in 1...count {
                let byte = bytes[index + offset]
                guard byte & 0xC0 == 0x80 else { throw notUTF8(path: path) }
                value = value << 6 | UInt32(byte & 0x3F)
            }
            guard value >= minimum, let scalar = Unicode.Scalar(value) else { throw notUTF8(path: path) }
            index += count + 1
            return scalar
        }

        func notUTF8(path: String) -> Failure {
            fail("octets qui ne sont pas de l’UTF-8 ; enregistrez le fichier en UTF-8.", path: path)
        }
    }

    // MARK: - Keys and messages

    private static func unknownKey(in input: JSONValue, knownFrom known: JSONValue, path: String) -> String? {
        switch input {
        case .object(let members):
            for (key, value) in members {
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                guard let knownChild = known[key] else {
                    // An optional set to null is not encoded back; an unknown key set to null
                    // cannot be told apart from it, and carries nothing that could be lost.
                    if value == .null { continue }
                    return childPath
                }
                if let found = unknownKey(in: value, knownFrom: knownChild, path: childPath) { return found }
            }
        case .array(let elements):
            guard case .array(let knownElements) = known else { return nil }
            for (index, element) in elements.enumerated() where index < knownElements.count {
                if let found = unknownKey(in: element, knownFrom: knownElements[index], path: "\(path)[\(index)]") {
                    return found
                }
            }
        default:
            break
        }
        return nil
    }

    private static func describe(_ error: DecodingError) -> Failure {
        switch error {
        case .keyNotFound(let key, let context):
            return Failure(path: render(context.codingPath + [key]), message: "clé obligatoire absente.")
        case .typeMismatch(let type, let context):
            return Failure(path: render(context.codingPath), message: "type inattendu ; \(typeName(type)) attendu.")
        case .valueNotFound(let type, let context):
            return Failure(path: render(context.codingPath), message: "valeur absente ; \(typeName(type)) attendu.")
        case .dataCorrupted(let context):
            // Foundation's own words are English and name Swift types; in valid JSON the only
            // corrupt data it reports is a number its target cannot hold.
            return Failure(path: render(context.codingPath), message: "nombre hors des limites acceptées.")
        @unknown default:
            return Failure(path: "", message: "JSON invalide.")
        }
    }

    static func render(_ path: [CodingKey]) -> String {
        path.reduce(into: "") { result, key in
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "texte"
        case is Double.Type: "nombre"
        case is Int.Type: "nombre entier"
        case is Bool.Type: "booléen (true ou false)"
        case is [Any].Type: "liste"
        default:
            // Arrays of a type and objects: Swift names them with generics, which say nothing
            // to an administrator.
            "\(type)".hasPrefix("Array<") ? "liste" : "\(type)".hasPrefix("Dictionary<") ? "objet" : "objet"
        }
    }
}
