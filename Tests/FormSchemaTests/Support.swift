import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// Whitespace runs (spaces, line breaks) as one space, as the PDF text extraction shows them.
func collapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}
