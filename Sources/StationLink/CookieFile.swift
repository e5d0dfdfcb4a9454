import Foundation
import HTTP

/// The web family's cookie jar on disk (`cookies.txt` in the data directory): a private
/// file, mode 0600, replaced atomically on every save, so a crash never leaves half a
/// session and no other user can read it.
public struct CookieFile: CookieStorage {
    /// The file.
    public let url: URL

    /// The jar kept at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// Reads the file if it exists, tightening its mode to 0600 first (a file from an
    /// older mhz, or edited by hand, may be wider).
    public func loadCookies() throws(HTTPError) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        _ = chmod(url.path, 0o600)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .storage("cannot read \(url.path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Replaces the file with `text`.
    public func saveCookies(_ text: String) throws(HTTPError) {
        do {
            try PrivateFile.write(Data(text.utf8), to: url)
        } catch {
            throw .storage(error.words)
        }
    }

    /// Deletes the file; a missing file is fine.
    public func eraseCookies() throws(HTTPError) {
        if unlink(url.path) != 0, errno != ENOENT {
            throw .storage("cannot delete \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
