/// Why a stored session could not be read, written or deleted, typed, so the command line
/// can word it (its `CustomStringConvertible` conformance is made there).
public enum SessionFailure: Error, Equatable, Sendable {
    /// The session file exists but cannot be read (its permissions).
    case unreadable(path: String)
    /// The session file cannot be read as a session.
    case damaged(path: String)
    /// The session could not be encoded; the encoder's reason.
    case unencodable(reason: String)
    /// The session file could not be written.
    case unwritable(PrivateFile.Failure)
    /// A file of the session could not be deleted; the system's reason.
    case undeletable(path: String, reason: String)
}
