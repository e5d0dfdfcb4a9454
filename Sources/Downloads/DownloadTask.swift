import Foundation
import Store

/// One download as front ends show it: the song, the state, and how far it got.
public struct DownloadTask: Sendable, Equatable {
    /// The stored task (its id, URL, song, path).
    public var record: DownloadRecord
    /// Where it stands.
    public var state: DownloadState
    /// Bytes on disk.
    public var bytes: Int64
    /// The file's full length, when known.
    public var total: Int64?
    /// Bytes per second over the last few seconds, while running.
    public var rate: Double

    /// The task's id.
    public var id: Int64 { record.id ?? 0 }

    /// Creates a task view.
    public init(record: DownloadRecord, state: DownloadState, bytes: Int64 = 0, total: Int64? = nil, rate: Double = 0) {
        self.record = record
        self.state = state
        self.bytes = bytes
        self.total = total
        self.rate = rate
    }
}

/// What a download manager tells its listeners: a task changed state or made progress.
public struct DownloadEvent: Sendable, Equatable {
    /// The task as it is now.
    public var task: DownloadTask
    /// Whether only the bytes moved (a progress tick) rather than the state.
    public var isProgress: Bool

    /// Creates an event.
    public init(task: DownloadTask, isProgress: Bool) {
        self.task = task
        self.isProgress = isProgress
    }
}
