/// What the listener typed into the login dialog, handed to ``LoginService/logIn(_:)``.
///
/// The password must never reach a log or a screen, so every textual form of this value
/// (`description`, `debugDescription`, `dump`/mirrors) leaves it out: a stray
/// `"\(answers)"` in a log line cannot leak it.
public struct LoginAnswers: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The e-mail address or user name, trimmed of surrounding whitespace.
    public var account: String
    /// The password exactly as typed (spaces are part of it).
    public var password: String
    /// The captcha's letters, trimmed; nil when the server's family has no captcha.
    public var captcha: String?

    /// Creates the answers.
    public init(account: String, password: String, captcha: String? = nil) {
        self.account = account
        self.password = password
        self.captcha = captcha
    }

    /// `account … password <hidden> captcha …`: everything but the password.
    public var description: String {
        "account \(account), password <hidden>" + (captcha.map { ", captcha \($0)" } ?? "")
    }

    /// Same as `description`: the password stays out of debug output too.
    public var debugDescription: String { "LoginAnswers(\(description))" }

    /// A mirror without the password, so `dump` and reflection cannot show it.
    public var customMirror: Mirror {
        Mirror(self, children: ["account": account, "password": "<hidden>", "captcha": captcha as Any])
    }
}
