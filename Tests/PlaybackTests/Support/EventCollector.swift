import Foundation
import Playback
import Synchronization
import TestSupport

/// Drains a player's event stream in the background and lets a test wait for events in
/// order: each `next` looks only at events after the previous match.
final class EventCollector: Sendable {
    private struct State {
        var events: [PlaybackEvent] = []
        var times: [ContinuousClock.Instant] = []
        var cursor = 0
        var streamEnded = false
    }

    private let state = Mutex(State())

    /// Starts draining `stream`.
    init(_ stream: AsyncStream<PlaybackEvent>) {
        Task { [self] in
            for await event in stream {
                let now = ContinuousClock.now
                state.withLock { $0.events.append(event); $0.times.append(now) }
            }
            state.withLock { $0.streamEnded = true }
        }
    }

    /// Every event so far.
    var all: [PlaybackEvent] { state.withLock { $0.events } }

    /// When the collector received each event (an upper bound of when it was sent).
    var times: [ContinuousClock.Instant] { state.withLock { $0.times } }

    /// The index of the first event matching `match`.
    func index(where match: (PlaybackEvent) -> Bool) -> Int? { all.firstIndex(where: match) }

    /// Whether the stream has finished.
    var streamEnded: Bool { state.withLock { $0.streamEnded } }

    /// The index the next `next` starts looking at.
    var cursor: Int { state.withLock { $0.cursor } }

    /// Events from `index` on.
    func events(from index: Int) -> [PlaybackEvent] { state.withLock { Array($0.events[min(index, $0.events.count)...]) } }

    /// Waits for the first event after the cursor that `match` accepts, and moves the cursor
    /// past it.
    /// - Throws: `TestSupportError.timeout` naming `what` and listing the events seen.
    @discardableResult
    func next(_ what: String, timeout: Duration = .seconds(30),
              where match: @Sendable (PlaybackEvent) -> Bool) async throws -> PlaybackEvent {
        do {
            return try await waitForValue(what, within: timeout) {
                state.withLock { state in
                    // The cursor may point past what has arrived yet (a seek's mark counts events
                    // the player sent that this collector has not received).
                    guard state.cursor <= state.events.count,
                          let index = state.events[state.cursor...].firstIndex(where: match) else { return nil }
                    state.cursor = index + 1
                    return state.events[index]
                }
            }
        } catch TestSupportError.timeout {
            throw TestSupportError.timeout("\(what) within \(timeout); events: \(all)")
        }
    }

    /// Waits for `started(id, _)` and returns its duration.
    func started(_ id: PlaybackItemID, timeout: Duration = .seconds(30)) async throws -> Double? {
        let event = try await next("started(\(id))", timeout: timeout) {
            if case .started(id, _) = $0 { true } else { false }
        }
        guard case .started(_, let duration) = event else { return nil }
        return duration
    }

    /// Waits for `finished(id, _)` and returns its reason.
    func finished(_ id: PlaybackItemID, timeout: Duration = .seconds(30)) async throws -> FinishReason {
        let event = try await next("finished(\(id))", timeout: timeout) {
            if case .finished(id, _) = $0 { true } else { false }
        }
        guard case .finished(_, let reason) = event else { return .stopped }
        return reason
    }

    /// Waits for the next `progress(id, _)` and returns its position.
    func progress(_ id: PlaybackItemID, timeout: Duration = .seconds(30)) async throws -> Double {
        let event = try await next("progress(\(id))", timeout: timeout) {
            if case .progress(id, _) = $0 { true } else { false }
        }
        guard case .progress(_, let position) = event else { return -1 }
        return position
    }

    /// Waits for the first `progress(id, _)` at or after stream index `index` (and after the
    /// cursor), moves the cursor past it, and returns its position. With the count a seek
    /// returns, this is where that seek landed, however far behind this collector ran.
    func progress(_ id: PlaybackItemID, from index: Int, timeout: Duration = .seconds(30)) async throws -> Double {
        state.withLock { $0.cursor = max($0.cursor, index) }
        return try await progress(id, timeout: timeout)
    }

    /// Waits until the stream has finished.
    func waitForStreamEnd(timeout: Duration = .seconds(30)) async throws {
        do {
            try await waitUntil("end of event stream", within: timeout) { streamEnded }
        } catch TestSupportError.timeout {
            throw TestSupportError.timeout("end of event stream within \(timeout); events: \(all)")
        }
    }
}

extension PlaybackEvent {
    /// The position, if this is a progress event of `id`.
    func progressPosition(of id: PlaybackItemID) -> Double? {
        if case .progress(id, let position) = self { position } else { nil }
    }

    /// The item this event is about, if any.
    var itemID: PlaybackItemID? { item }
}
