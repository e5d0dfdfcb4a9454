import Synchronization

/// The stream a `PlayerController` offers its events on. It is created when first asked
/// for; events sent before that are kept and replayed to it, so nothing that happened
/// between creating the player and listening to it is lost.
final class EventChannels: Sendable {
    private struct State {
        /// Events sent before the stream existed (nil once it has been taken).
        var backlog: [PlaybackEvent]? = []
        var events: (stream: AsyncStream<PlaybackEvent>, continuation: AsyncStream<PlaybackEvent>.Continuation)?
        var finished = false
    }

    private let state = Mutex(State())

    /// Creates channels with nothing taken yet.
    init() {}

    /// The stream (created on first use; every later call returns the same one).
    var events: AsyncStream<PlaybackEvent> {
        state.withLock { state in
            if let existing = state.events { return existing.stream }
            let pair = AsyncStream.makeStream(of: PlaybackEvent.self, bufferingPolicy: .unbounded)
            for event in state.backlog ?? [] { pair.continuation.yield(event) }
            state.backlog = nil
            if state.finished { pair.continuation.finish() }
            state.events = (pair.stream, pair.continuation)
            return pair.stream
        }
    }

    /// Sends one event to the stream (or to the backlog). An unbounded AsyncStream's yield
    /// never blocks and runs no consumer code.
    func send(_ event: PlaybackEvent) {
        state.withLock { state in
            if state.events == nil { state.backlog?.append(event) }
            state.events?.continuation.yield(event)
        }
    }

    /// Finishes the stream; a stream taken later finishes after its replay.
    func finish() {
        state.withLock { state in
            state.finished = true
            state.events?.continuation.finish()
        }
    }
}
