import FormSchema
import Synchronization

/// One form's layout (`FormLayout`) for the renderer: laid out in the renderer's `init` for a
/// form an administrator added, so that one that cannot be drawn is refused at start (fail
/// closed); on its first use for a built-in form, which cannot change after the build and whose
/// layout `RenderingTests` checks for each one.
///
/// Measured (2026-11-29): laying out the 16 built-in forms at every start was about two thirds
/// of `attestation-server --check-config` under the address sanitizer (2.4 s of CPU), and
/// make test starts the server and `attestation-admin` hundreds of times; a request then
/// prints one version, today's.
final class FormLayoutOnFirstUse: Sendable {
    let form: Form
    private let layout: Mutex<FormLayout?>

    /// Lays `form` out now unless `deferred`.
    init(form: Form, deferred: Bool) throws(RenderingError) {
        self.form = form
        layout = Mutex(deferred ? nil : try FormLayout(form: form))
    }

    /// Whether the layout is made (the tests ask).
    var isLaidOut: Bool { layout.withLock { $0 != nil } }

    /// The layout, made on the first call; concurrent first calls wait for the one that makes it.
    func get() throws(RenderingError) -> FormLayout {
        try layout.withLock { (made: inout FormLayout?) throws(RenderingError) -> FormLayout in
            if let made { return made }
            let new = try FormLayout(form: form)
            made = new
            return new
        }
    }
}
