import Foundation

/// The process's limit on open descriptors (`RLIMIT_NOFILE`), for the host of a serving
/// station (`mhz serve`): the station leaves process-wide settings to its host, as it does
/// signals. Every connection the station holds is a descriptor, and the usual soft limit
/// (1024) would let a few hundred idle connections, each closed only by the station's idle
/// timeout, use them all, so new clients wait in the accept queue. The hard limit is what
/// the process may raise it to unasked (setrlimit(2): "an unprivileged process may set
/// only its soft limit to a value in the range from 0 up to the hard limit").
public enum OpenFileLimit {
    /// Raises the soft limit to the hard one; returns the soft limit in force afterwards
    /// (the old one when raising failed, nil when it cannot be read).
    @discardableResult
    public static func raiseToHard() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return UInt64(limit.rlim_cur) }
        return UInt64(raised.rlim_cur)
    }
}
