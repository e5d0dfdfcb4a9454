import Radio

/// Delivers commands to the session one at a time, in the order they were given, from any
/// thread (stdin reader, UI thread, signal queue, control socket clients).
public final class CommandPump: Sendable {
    private typealias Entry = (command: RadioCommand, done: (@Sendable () -> Void)?)
    private let continuation: AsyncStream<Entry>.Continuation
    private let task: Task<Void, Never>

    /// A pump into `session`, running until the pump is released.
    /// Commands for the lyrics (`lyrics-earlier`, `lyrics-later`) also go to `lyrics`, which
    /// the lyric follower sets.
    public init(session: any RadioControl, lyrics: (@Sendable (RadioCommand) -> Void)? = nil) {
        let (stream, continuation) = AsyncStream<Entry>.makeStream(bufferingPolicy: .unbounded)
        self.continuation = continuation
        task = Task {
            for await entry in stream {
                if entry.command == .lyricsEarlier || entry.command == .lyricsLater { lyrics?(entry.command) }
                await session.send(entry.command)
                entry.done?()
            }
        }
    }

    /// Queues `command` behind those sent before it; returns at once. `done` runs once the
    /// session has handled it (its effects begun: a skip's next song is already loading),
    /// which is what a control client's answer waits for.
    public func send(_ command: RadioCommand, done: (@Sendable () -> Void)? = nil) {
        continuation.yield((command, done))
    }

    deinit { continuation.finish() }
}
