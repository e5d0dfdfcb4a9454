/// mhz's version, written here and nowhere else: `mhz --version`, the station's `Server`
/// header and `/status`, the User-Agent of mhz's requests and the client version it gives a
/// scrobbling service all read it. Raised by hand when a release is cut.
public enum MhzVersion {
    /// The version number (`MAJOR.MINOR.PATCH`).
    public static let number = "0.4.0"

    /// `mhz/0.4.0`: the product token of RFC 9110's `Server` and `User-Agent` (§10.1.5, §10.2.4).
    public static var product: String { "mhz/\(number)" }
}
