import Foundation
import NIOCore

/// How the station names where it listens: the root URL its links start from, and a
/// failure to listen in the system's words.
extension Station {
    /// `http://host:port` (`https://` when `secure`), with a wildcard bind address replaced
    /// by loopback (a client cannot connect to `0.0.0.0`) and IPv6 literals bracketed.
    static func rootURL(host: String, port: Int, secure: Bool = false) -> URL {
        var name = host
        if name.isEmpty || name == "0.0.0.0" { name = "127.0.0.1" }
        if name == "::" { name = "::1" }
        if name.contains(":") { name = "[\(name)]" }
        let scheme = secure ? "https" : "http"
        if let url = URL(string: "\(scheme)://\(name):\(port)") { return url }
        // A name the system resolved that a URL's host may not hold as it is (a space, from
        // a hosts file): escaped, so the links still build.
        let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlHostAllowed) ?? ""
        return URL(string: "\(scheme)://\(escaped):\(port)") ?? URL(string: "\(scheme)://127.0.0.1")!
    }

    /// A server failure's reason in the system's words, as the station's other reasons are
    /// (`strerror`'s): NIO's own description of an I/O error names the call in Swift and
    /// its errno in parentheses (`bind(descriptor:ptr:bytes:): Cannot assign requested
    /// address (errno: 99)`), and of a name it cannot resolve is a Swift value.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let failure as IOError:
            return String(cString: strerror(failure.errnoCode))
        case let failure as SocketAddressError.UnknownHost:
            // getaddrinfo(3)'s own words for why it could not resolve the name.
            return failure.errorDescription
        case SocketAddressError.unknown:
            // A name getaddrinfo(3) could not resolve, NIO's older form: its `EAI_NONAME`.
            return String(cString: gai_strerror(EAI_NONAME))
        default:
            return String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown"
        }
    }
}
