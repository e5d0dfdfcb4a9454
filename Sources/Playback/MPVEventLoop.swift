import CMpv
import Foundation
import Synchronization

/// The one thread that waits for mpv's events, as client.h prescribes: "spawn a thread that
/// does nothing but call mpv_wait_event() in a loop and dispatches the result". Each event is
/// copied, passed through the `PlaybackEventTranslator`, and the results are yielded into
/// the controller's `AsyncStream`. The loop never calls back into its owner.
final class MPVEventLoop: Sendable {
    /// What the loop and the controller's calls share, under one lock.
    private struct State {
        var translator: PlaybackEventTranslator
        /// How many events have been yielded into the stream so far.
        var sent = 0

        /// Yields `event` and counts it.
        mutating func send(_ event: PlaybackEvent, to continuation: AsyncStream<PlaybackEvent>.Continuation) {
            continuation.yield(event)
            sent += 1
        }
    }

    private let source: MPVEventSource
    private let state: Mutex<State>
    private let continuation: AsyncStream<PlaybackEvent>.Continuation
    /// Set when the owner stops the loop without `quit` (mpv refused it): the next
    /// `MPV_EVENT_NONE` ends the loop instead of `MPV_EVENT_SHUTDOWN`.
    private let stopRequested = Atomic<Bool>(false)
    /// Lets `join()` sleep until the thread has left `run()`.
    private let exitSignal = NSCondition()
    private let exited = Mutex(false)

    /// Prepares a loop over `source`; nothing runs until `start()`.
    init(source: MPVEventSource, translator: PlaybackEventTranslator,
         continuation: AsyncStream<PlaybackEvent>.Continuation) {
        self.source = source
        self.state = Mutex(State(translator: translator))
        self.continuation = continuation
    }

    /// Starts the thread. Call once.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "mhz.mpv-events"
        thread.start()
    }

    /// Runs `body` on the translator's state while the loop cannot translate or yield an
    /// event, so what the controller registers (a load's id, a seek's gate) is in place
    /// before mpv's events about it are handled, and applies to every event yielded after
    /// `body` returns.
    func withTranslator<Result, Failure: Error>(
        _ body: (inout PlaybackEventTranslator) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in try body(&state.translator) }
    }

    /// Like `withTranslator`, also passing how many events the stream has been given so
    /// far: every event after that many was translated with `body`'s changes in force.
    func withTranslatorCounting<Result, Failure: Error>(
        _ body: (inout PlaybackEventTranslator, _ sent: Int) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in try body(&state.translator, state.sent) }
    }

    /// Makes the loop end at the next `MPV_EVENT_NONE`; the owner then calls `mpv_wakeup`.
    func requestStop() { stopRequested.store(true, ordering: .releasing) }

    /// Blocks until the thread has finished the stream and left the loop. Returns at once
    /// if it already has; any number of callers may wait.
    func join() {
        exitSignal.lock()
        while !exited.withLock({ $0 }) { exitSignal.wait() }
        exitSignal.unlock()
    }

    private func run() {
        while true {
            // client.h: "Only one thread is allowed to call this on the same mpv_handle at a
            // time." This is that thread. A negative timeout waits until an event arrives or
            // mpv_wakeup() is called. "The return value is never NULL."
            guard let pointer = mpv_wait_event(source.raw, -1) else { continue }
            // "The pointer (and fields in the struct) stay valid until the next
            // mpv_wait_event() call": copy everything out now.
            let event = MPVEvent(copying: pointer.pointee)
            if event == .shutdown { break }
            if event == .none, stopRequested.load(ordering: .acquiring) { break }
            let input = refreshed(event)
            state.withLock { state in
                // Only this thread yields, so the stream keeps mpv's order. Yielding inside
                // the lock also makes the stream follow the lock's order: an event translated
                // before a seek registered its gate cannot reach the stream after that seek
                // returned. An unbounded AsyncStream's yield never blocks and runs no
                // consumer code (a waiting consumer is only scheduled).
                for playbackEvent in input.flatMap({ state.translator.translate($0, at: .now) }) {
                    state.send(playbackEvent, to: continuation)
                }
            }
        }
        // After MPV_EVENT_SHUTDOWN no further events come; the handle only waits to be
        // destroyed, which the owner does after join().
        state.withLock { state in
            for playbackEvent in state.translator.finishAll() { state.send(playbackEvent, to: continuation) }
        }
        continuation.finish()
        exitSignal.lock()
        exited.withLock { $0 = true }
        exitSignal.broadcast()
        exitSignal.unlock()
    }

    /// The event with fresh values where mpv's observed ones can be late. mpv fetches
    /// observed properties asynchronously and delivers the change whenever the fetch is done:
    /// on 0.35.1 `time-pos` and `duration` changes were seen arriving after SEEK and
    /// PLAYBACK_RESTART, and a `time-pos` fetched before a seek can follow that seek's SEEK.
    /// So positions are read when they are reported, and `duration` is read at every
    /// PLAYBACK_RESTART so `started` carries it (the late change then repeats the value and
    /// is dropped). Calling the API from this thread is allowed (only the wakeup callback
    /// may not), and the handle outlives the loop.
    private func refreshed(_ event: MPVEvent) -> [MPVEvent] {
        switch event {
        case .propertyChanged(.timePosition, _): [.propertyChanged(.timePosition, read(.timePosition))]
        case .playbackRestart: [.propertyChanged(.duration, read(.duration)), event]
        default: [event]
        }
    }

    /// A numeric property read synchronously; `.none` when unavailable.
    private func read(_ property: MPVProperty) -> MPVNode {
        var value = 0.0
        let rc = mpv_get_property(source.raw, property.rawValue, MPV_FORMAT_DOUBLE, &value)
        return rc >= 0 ? .double(value) : .none
    }
}
