import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// Fixed values shared by the suites: no test reads the real clock.
enum Fixture {
    /// The day the 28 November 2020 form came into force.
    static let today = CalendarDate(year: 2020, month: 11, day: 28)!

    static let form1128ID = "deplacement-2020-11-28"
    static let form1102ID = "deplacement-2020-11-02"

    static var form1128: Form { FormCatalog.builtIn.form(id: form1128ID)! }
    static var form1102: Form { FormCatalog.builtIn.form(id: form1102ID)! }
}

/// Whitespace runs (spaces, line breaks) as one space, as the PDF text extraction shows them.
func collapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}
