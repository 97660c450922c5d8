import HTTPServer
import Licenses

/// `GET /licenses`: the third-party notices, built once (at service start), with an ETag.
enum LicensesPage {
    static let file = PublicFiles.File(
        body: Array(ThirdPartyNotices.html(versions: LinkedLibraries.versions).utf8),
        contentType: "text/html; charset=utf-8", cacheControl: "no-cache")

    static func response(_ request: HTTPRequest) throws(RouteError) -> HTTPResponse {
        _ = try QueryParameters.parse(request.query, accepted: [])
        return file.response(for: request, headers: Routes.pageHeaders)
    }
}
