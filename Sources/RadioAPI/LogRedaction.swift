import Foundation

/// Turns requests into text that is safe for a log file: the secrets a request can carry
/// in its URL are replaced, and bodies (where passwords travel) are never shown.
///
/// Cookies are not here because requests built by RadioAPI never carry them: the HTTP
/// layer adds them, and nothing logs its headers.
public enum LogRedaction {
    /// What replaces a secret value.
    public static let placeholder = "<redacted>"

    /// Query and form fields whose values are secrets: the app token, passwords, the web
    /// session's `ck` (it authorises logout and writes), and a typed captcha answer.
    public static let secretFields: Set<String> = ["token", "password", "form_password", "ck", "captcha_solution"]

    /// The URL with every secret query value replaced by ``placeholder``.
    public static func url(_ url: URL) -> String {
        let text = url.absoluteString
        guard let mark = text.firstIndex(of: "?") else { return text }
        let query = text[text.index(after: mark)...]
        let redacted = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            guard secretFields.contains(name), parts.count == 2 else { return String(pair) }
            return "\(parts[0])=\(placeholder)"
        }
        return String(text[...mark]) + redacted.joined(separator: "&")
    }

    /// One line describing a request: method and redacted URL, plus the body's size (never
    /// its content).
    public static func describe(_ request: APIRequest) -> String {
        var line = "\(request.method.rawValue) \(url(request.url))"
        if let body = request.body { line += " (\(body.count)-byte body\(request.isLogin ? ", login" : ""))" }
        return line
    }
}
