import StationLink

/// One line per session-file failure: what happened and what to do.
extension SessionFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadable(let path):
            "cannot read the session file \(path): check its permissions, or run `mhz logout`"
        case .damaged(let path):
            "the session file \(path) is damaged: run `mhz logout`, then `mhz login`"
        case .unencodable(let reason):
            "cannot save the session: \(reason)"
        case .unwritable(let failure):
            "cannot save the session: \(failure.words) — check the data directory (--data-dir)"
        case .undeletable(let path, let reason):
            "cannot delete \(path): \(reason) — delete it by hand"
        }
    }
}

extension CLIError {
    /// What `body` returns; a session-file failure becomes ``CLIError/runtime(_:)`` with
    /// its line.
    static func wording<T>(_ body: @autoclosure () throws(SessionFailure) -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            throw .runtime(error.description)
        }
    }
}
