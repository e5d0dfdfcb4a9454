import RadioAPI

/// The fields of `POST /j/app/login` (docs/PROTOCOL.md §5.1, §9): `app_name`, `version`,
/// `email` or `username`, `password`, and after repeated failures `captcha_id` and
/// `captcha_solution`. Read from the form body and the query string alike (linq/doubanfm sent them
/// in the query of a POST); the body wins when both carry a field.
struct AppLoginForm: Sendable, Equatable {
    /// `app_name`.
    var appName: String
    /// `version`.
    var version: String
    /// `email`, when sent.
    var email: String?
    /// `username`, when sent.
    var username: String?
    /// `password`.
    var password: String
    /// `captcha_id`, when sent.
    var captchaID: String?
    /// `captcha_solution`, when sent.
    var captchaSolution: String?

    /// Reads the fields from decoded pairs, body pairs after query pairs.
    init(pairs: [(String, String)]) {
        var fields: [String: String] = [:]
        for (name, value) in pairs { fields[name] = value }
        func field(_ name: String) -> String? {
            guard let value = fields[name], !value.isEmpty else { return nil }
            return value
        }
        appName = field("app_name") ?? ""
        version = field("version") ?? ""
        email = field("email")
        username = field("username")
        password = fields["password"] ?? ""
        captchaID = field("captcha_id")
        captchaSolution = field("captcha_solution")
    }

    /// Whether `app_name` and `version` name an app-API client: `radio_<something>` and
    /// a version from 100 (every app client) to 999 (the mobile app sent 115).
    var isSupportedClient: Bool {
        guard appName.hasPrefix("radio_"), appName.count <= 40,
              appName.dropFirst(6).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
              let number = Int(version)
        else { return false }
        return (100...999).contains(number)
    }

    /// The account as typed, from `email` or else `username`.
    var account: String? {
        email ?? username
    }
}
