// How a form and its files show in `dump`, `String(reflecting:)` and a test's expectations: by
// what names them. A drawn form of 2021 holds Luciole's four files and two logos, about a
// megabyte, and its full reflection wrote them out as text, 714 KB of it for the form alone.
// Swift Testing reflects every error `#expect(throws:)` catches, at every depth, passing or not:
// three tests catching an error that names a form (`LinkRequestError.reasonsNotInForm`) took
// 85 s of CPU (debug build), 83 % of ConfigurationTests under the address sanitizer (perf).

extension Form: CustomReflectable, CustomDebugStringConvertible {
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "name": name], displayStyle: .struct) }
    public var debugDescription: String { "Form(\(id))" }
}

extension FontFile: CustomReflectable, CustomDebugStringConvertible {
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "fileName": fileName], displayStyle: .class)
    }
    public var debugDescription: String { "FontFile(\(name), \(fileName), \(bytes.count) octets)" }
}

extension FormImage: CustomReflectable, CustomDebugStringConvertible {
    public var customMirror: Mirror {
        Mirror(
            self, children: ["fileName": fileName as Any, "pixelWidth": pixelWidth, "pixelHeight": pixelHeight],
            displayStyle: .struct)
    }
    public var debugDescription: String {
        "FormImage(\(fileName ?? format.rawValue), \(pixelWidth)×\(pixelHeight), \(bytes.count) octets)"
    }
}
