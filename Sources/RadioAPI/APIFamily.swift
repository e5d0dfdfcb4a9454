/// The API families mhz speaks (docs/PROTOCOL.md §1.1). They share the report letters
/// and the song object, but differ in paths, parameters and how a listener is identified.
public enum APIFamily: String, Sendable, CaseIterable, Codable {
    /// The app API (`/j/app/radio/people`, `/j/app/login`): a logged-in listener is
    /// identified by `user_id`, `token` and `expire` query parameters. The embedded
    /// station speaks it.
    case app
    /// The web API (`/j/v2/playlist`, `/j/login` with a captcha): a logged-in listener is
    /// identified by cookies (`dbcl2`, `ck`, `bid`).
    case web
}
