import Synchronization

/// The two streams a `PlayerController` offers over one sequence of updates: `updates` (the
/// full `PlaybackUpdate` vocabulary) and `events` (the older `PlaybackEvent` subset). Each
/// is created when first asked for, so a consumer of one never leaves the other growing
/// without a reader. Updates sent before either stream was asked for are kept and replayed
/// to the first one taken; a stream taken later starts with the updates sent after that.
final class EventChannels: Sendable {
    private struct State {
        /// Updates sent before any stream existed (nil once one has been taken).
        var backlog: [PlaybackUpdate]? = []
        var updates: (stream: AsyncStream<PlaybackUpdate>, continuation: AsyncStream<PlaybackUpdate>.Continuation)?
        var events: (stream: AsyncStream<PlaybackEvent>, continuation: AsyncStream<PlaybackEvent>.Continuation)?
        var finished = false
    }

    private let state = Mutex(State())

    /// Creates channels with nothing taken yet.
    init() {}

    /// The full stream (created on first use).
    var updates: AsyncStream<PlaybackUpdate> {
        state.withLock { state in
            if let existing = state.updates { return existing.stream }
            let pair = AsyncStream.makeStream(of: PlaybackUpdate.self, bufferingPolicy: .unbounded)
            for update in state.backlog ?? [] { pair.continuation.yield(update) }
            state.backlog = nil
            if state.finished { pair.continuation.finish() }
            state.updates = (pair.stream, pair.continuation)
            return pair.stream
        }
    }

    /// The older stream (created on first use).
    var events: AsyncStream<PlaybackEvent> {
        state.withLock { state in
            if let existing = state.events { return existing.stream }
            let pair = AsyncStream.makeStream(of: PlaybackEvent.self, bufferingPolicy: .unbounded)
            for event in (state.backlog ?? []).compactMap(\.legacyEvent) { pair.continuation.yield(event) }
            state.backlog = nil
            if state.finished { pair.continuation.finish() }
            state.events = (pair.stream, pair.continuation)
            return pair.stream
        }
    }

    /// Sends one update to every stream taken so far (or to the backlog). An unbounded
    /// AsyncStream's yield never blocks and runs no consumer code.
    func send(_ update: PlaybackUpdate) {
        state.withLock { state in
            if state.updates == nil, state.events == nil { state.backlog?.append(update) }
            state.updates?.continuation.yield(update)
            if let event = update.legacyEvent { state.events?.continuation.yield(event) }
        }
    }

    /// Finishes every stream; streams taken later finish after their replay.
    func finish() {
        state.withLock { state in
            state.finished = true
            state.updates?.continuation.finish()
            state.events?.continuation.finish()
        }
    }
}
