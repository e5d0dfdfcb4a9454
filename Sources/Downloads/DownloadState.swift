import Store

/// Where one download stands.
///
/// ```
///   queued ──slot free──► running ──verified──► completed
///     ▲  ▲                 │  │ │
///     │  └──timer── waiting ◄┘  │ └──► failed(reason) ──retry──► queued
///     │                         │
///     └──resume── paused ◄──────┘ pause (from queued, waiting, running)
///   cancel (from any but completed) ──► canceled ──retry──► queued
/// ```
public enum DownloadState: Sendable, Equatable {
    /// Waiting for one of the `max_concurrent` slots.
    case queued
    /// Fetching.
    case running
    /// Stopped by the user; its bytes are kept.
    case paused
    /// Failed for a passing reason (`reason`, e.g. the network); tried again after a wait.
    /// `attempt` counts the failures in a row.
    case waiting(reason: DownloadError, attempt: Int)
    /// Fetched, verified and in place.
    case completed
    /// Failed for a reason that will not pass by itself; the user may retry.
    case failed(DownloadError)
    /// Stopped by the user for good; its partial file is deleted.
    case canceled

    /// The word for it, as the command line and the JSON events write it.
    public var name: String { stored.rawValue }

    /// The stored form.
    var stored: DownloadRecord.State {
        switch self {
        case .queued: .queued
        case .running: .running
        case .paused: .paused
        case .waiting: .waiting
        case .completed: .completed
        case .failed: .failed
        case .canceled: .canceled
        }
    }

    /// The reason of a waiting or failed task.
    public var error: DownloadError? {
        switch self {
        case .waiting(let reason, _): reason
        case .failed(let reason): reason
        default: nil
        }
    }

    /// Whether nothing more will happen to it without the user.
    public var isSettled: Bool {
        switch self {
        case .completed, .failed, .canceled, .paused: true
        case .queued, .running, .waiting: false
        }
    }
}
