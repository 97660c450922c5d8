import AttestationKit
import FormSchema
import Foundation

/// Fixed values shared by the suites: no test reads the real clock. Each test target adds its
/// own in an extension.
public enum Fixture {
    /// The day the 28 November 2020 form came into force.
    public static let today = CalendarDate(year: 2020, month: 11, day: 28)!

    public static let form1128ID = "deplacement-2020-11-28"
    public static let form1102ID = "deplacement-2020-11-02"

    public static var form1128: Form { FormCatalog.builtIn.form(id: form1128ID)! }
    public static var form1102: Form { FormCatalog.builtIn.form(id: form1102ID)! }
}
