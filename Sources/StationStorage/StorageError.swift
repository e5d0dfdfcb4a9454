import Foundation

/// A file or database of the station that could not be used: which one, and a short
/// reason (`rename: No space left on device`, `SQLITE_FULL: database or disk is full`,
/// `taglib_file_save failed`). The station's jobs (library, recommender, demo library)
/// report their storage failures with it; the server turns it into its own error.
public struct StorageError: Error, Sendable, Equatable {
    /// The file the operation was about.
    public var path: String
    /// A short reason, never SQL or a stack.
    public var reason: String

    /// Creates a failure.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// A failure of `operation` on `path` for the current `errno`.
    public static func errno(_ path: String, _ operation: String) -> StorageError {
        StorageError(path: path, reason: "\(operation): \(String(cString: strerror(Foundation.errno)))")
    }

    /// The system's words for a Foundation file error: the POSIX reason when there is one
    /// (`No such file or directory`), else its domain and code.
    public static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return "\(nsError.domain) \(nsError.code)"
    }
}
