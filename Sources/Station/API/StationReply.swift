import Foundation

/// One answer of the station's API, whatever carries it: the HTTP server turns it into a
/// response, ``Station/respond(method:path:query:body:)`` hands it to a caller in the same
/// process.
public struct StationReply: Sendable, Equatable {
    /// The HTTP status: 200 for every app-API answer, errors included (they travel in-band,
    /// as Douban's did); 404 for an unknown path; 500 when the station's own storage failed.
    public var status: Int
    /// The body's media type.
    public var contentType: String
    /// The body.
    public var body: Data
    /// `Set-Cookie` header values (the web family's login and logout set cookies).
    public var cookies: [String]
    /// `Cache-Control`, when the answer must not be cached (a captcha image).
    public var cacheControl: String?

    /// Creates a reply.
    public init(status: Int, contentType: String, body: Data, cookies: [String] = [], cacheControl: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.cookies = cookies
        self.cacheControl = cacheControl
    }
}
