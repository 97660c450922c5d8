import AttestationConfiguration
import FormSchema
import HTTPServer
import Rendering

extension Routes {
    /// `/attestation-papier.pdf?t=TOKEN`: the link's paper attestation, the form with the
    /// person's identity written in and nothing else (no reason, date, time nor QR code), to
    /// print and fill in by hand (`PaperAttestation`). The link is verified as for the
    /// attestation: an expired or revoked link gets no paper either. It takes no other
    /// parameter but `context`: there is no moment, no reason to choose. A link that follows
    /// the calendar gets the form in force now.
    func paperAttestation(_ request: HTTPRequest) throws(RouteError) -> HTTPResponse {
        let values = try QueryParameters.parse(request.query, accepted: ["t", "context"])
        let token = try QueryParameters.token(in: values)
        let form: Form
        let link: VerifiedLink
        do {
            link = try snapshot.state.verify(token: token, now: now)
            form = try snapshot.state.form(for: link, at: now, context: values["context"]).form
        } catch { throw RouteError(error) }
        let start = ContinuousClock.now
        let body: [UInt8]
        do {
            body = try snapshot.renderer.paperPDF([PaperAttestation(identity: link.contents.identity, form: form)])
        } catch {
            throw RouteError(
                status: 500,
                message: "erreur interne : \(error.description) Réessayez ou prévenez votre administrateur.",
                reason: "render_failed")
        }
        metrics.render(format: "paper_pdf", duration: ContinuousClock.now - start)
        return HTTPResponse(
            status: 200,
            headers: Self.privateHeaders + [
                ("Content-Type", "application/pdf"),
                ("Content-Disposition", "inline; filename=\"\(Self.paperFileName)\""),
            ],
            body: body)
    }

    /// Undated, as the paper is.
    static let paperFileName = "attestation-papier.pdf"
}
