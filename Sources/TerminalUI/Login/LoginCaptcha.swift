/// A captcha as the login dialog can show it inside the terminal UI: as text rows (the
/// image drawn with characters, e.g. by chafa's symbol output) or, when it cannot be
/// drawn, the file the image was saved to, for the listener to open.
public enum LoginCaptcha: Sendable, Equatable {
    /// The image drawn as text, one string per terminal row, without escape sequences.
    case picture([String])
    /// The image could not be drawn; it is saved at this path.
    case file(String)
}
