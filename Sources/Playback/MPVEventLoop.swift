import CMpv
import Foundation
import Synchronization

/// The one thread that waits for mpv's events, as client.h prescribes: "spawn a thread that
/// does nothing but call mpv_wait_event() in a loop and dispatches the result". Each event is
/// copied, passed through the `PlaybackEventTranslator`, the resulting events are sent to
/// the `EventChannels`, and the translator's `PlayerAction`s are run against mpv. The loop
/// never calls back into its owner.
final class MPVEventLoop: Sendable {
    /// What the loop and the controller's calls share, under one lock.
    private struct State {
        var translator: PlaybackEventTranslator
        /// How many events have been sent so far.
        var sent = 0
    }

    private let handle: MPVHandle
    private let source: MPVEventSource
    private let state: Mutex<State>
    private let channels: EventChannels
    /// Asked for the status of a refused URL; the translator asks only when there is one.
    private let probe: (any MediaURLProbe)?
    /// Set when the owner stops the loop without `quit` (mpv refused it): the next
    /// `MPV_EVENT_NONE` ends the loop instead of `MPV_EVENT_SHUTDOWN`.
    private let stopRequested = Atomic<Bool>(false)
    /// Lets `join()` sleep until the thread has left `run()`.
    private let exitSignal = NSCondition()
    private let exited = Mutex(false)
    /// `MHZ_PLAYBACK_TRACE=1` prints every mpv event (but `time-pos`) to stderr, for
    /// diagnosing what mpv reported; off by default.
    private let trace = ProcessInfo.processInfo.environment["MHZ_PLAYBACK_TRACE"] == "1"

    /// Prepares a loop over `handle`; nothing runs until `start()`.
    init(handle: MPVHandle, translator: PlaybackEventTranslator, channels: EventChannels, probe: (any MediaURLProbe)?) {
        self.handle = handle
        self.probe = probe
        self.source = handle.eventSource
        self.state = Mutex(State(translator: translator))
        self.channels = channels
    }

    /// Starts the thread. Call once.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "mhz.mpv-events"
        thread.start()
    }

    /// Runs `body` on the translator while the loop cannot translate or send an event, so
    /// what the controller registers (a load's id, a seek's gate) is in place before mpv's
    /// events about it are handled; then sends what `body` produced and runs its actions.
    /// `body` receives how many events had been sent before it ran.
    func withTranslator<Result, Failure: Error>(
        _ body: (inout PlaybackEventTranslator, _ sent: Int) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in
            let result = try body(&state.translator, state.sent)
            flush(&state)
            return result
        }
    }

    /// Makes the loop end at the next `MPV_EVENT_NONE`; the owner then calls `mpv_wakeup`.
    func requestStop() { stopRequested.store(true, ordering: .releasing) }

    /// Blocks until the thread has finished the streams and left the loop. Returns at once
    /// if it already has; any number of callers may wait.
    func join() {
        exitSignal.lock()
        while !exited.withLock({ $0 }) { exitSignal.wait() }
        exitSignal.unlock()
    }

    private func run() {
        while true {
            let timeout = state.withLock { state in Self.timeout(for: state.translator) }
            // client.h: "Only one thread is allowed to call this on the same mpv_handle at a
            // time." This is that thread. "timeout: Timeout in seconds, after which the
            // function returns even if no event was received. A MPV_EVENT_NONE is returned on
            // timeout. A value of 0 will disable waiting. Negative values will wait with an
            // infinite timeout." "The return value is never NULL."
            guard let pointer = mpv_wait_event(source.raw, timeout) else { continue }
            // "The pointer (and fields in the struct) stay valid until the next
            // mpv_wait_event() call": copy everything out now.
            let event = MPVEvent(copying: pointer.pointee)
            if event == .shutdown { break }
            if event == .none, stopRequested.load(ordering: .acquiring) { break }
            if trace, event != .none, event != .propertyChanged(.timePosition, .none) {
                if case .propertyChanged(.timePosition, _) = event {} else {
                    FileHandle.standardError.write(Data("[mpv \(ObjectIdentifier(self).hashValue % 10000)] \(event)\n".utf8))
                }
            }
            let input = refreshed(event)
            state.withLock { state in
                // Only this thread and the controller's calls (under this lock) send, so the
                // streams keep mpv's order, and an event translated before a seek registered
                // its gate cannot reach a stream after that seek returned.
                let now = ContinuousClock.now
                for item in input { state.translator.translate(item, at: now) }
                if let deadline = state.translator.nextDeadline, deadline <= now { state.translator.fire(at: now) }
                flush(&state)
            }
        }
        // After MPV_EVENT_SHUTDOWN no further events come; the handle only waits to be
        // destroyed, which the owner does after join().
        state.withLock { state in
            state.translator.finishAll()
            for event in state.translator.takeOutput().events { send(event, &state) }
        }
        channels.finish()
        exitSignal.lock()
        exited.withLock { $0 = true }
        exitSignal.broadcast()
        exitSignal.unlock()
    }

    /// How long `mpv_wait_event` may block: not at all while an END_FILE waits for mpv's
    /// queue to drain (`MPV_EVENT_NONE` then proves every log line logged before it has been
    /// delivered, since mpv hands out queued events before buffered log messages), until the
    /// next timer otherwise, or indefinitely.
    private static func timeout(for translator: PlaybackEventTranslator) -> Double {
        if translator.needsDrain { return 0 }
        guard let deadline = translator.nextDeadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) * 1e-18
        return max(0, seconds)
    }

    /// Sends the translator's events and runs its actions until none are left (an action's
    /// outcome, reported back to the translator, can produce more).
    private func flush(_ state: inout State) {
        while true {
            let output = state.translator.takeOutput()
            for event in output.events { send(event, &state) }
            if output.actions.isEmpty { return }
            for action in output.actions { run(action, &state.translator) }
        }
    }

    private func send(_ event: PlaybackEvent, _ state: inout State) {
        channels.send(event)
        state.sent += 1
    }

    /// Carries out one action. Calling the client API from this thread is allowed (only the
    /// wakeup callback may not), and runs before any later event is handled.
    private func run(_ action: PlayerAction, _ translator: inout PlaybackEventTranslator) {
        switch action {
        case .halt:
            try? handle.command(.stop)
        case .reload(let item, let url, let start, let gain, let requeue):
            do {
                let entry = try handle.loadFile(url, flags: MPVArgument.replace, startAt: start, gain: gain)
                let requeued = requeue.flatMap {
                    try? handle.loadFile($0.url, flags: MPVArgument.appendPlay, startAt: $0.start, gain: $0.gain)
                }
                translator.noteReloaded(entry: entry, requeued: requeued)
            } catch {
                _ = item
                translator.noteReloadFailed(at: .now)
            }
        case .restoreQueued(let queued):
            if let entry = try? handle.loadFile(queued.url, flags: MPVArgument.appendPlay, startAt: queued.start,
                                                gain: queued.gain) {
                translator.noteRestored(entry: entry, item: queued.item)
            } else {
                translator.finish(queued.item, .stopped)
            }
        case .removeEntry(let entry):
            handle.removeEntry(entry)
        case .probe(let entry, let url):
            // Off this thread: the answer may take up to the probe's timeout. The END_FILE
            // and everything after it wait in the translator meanwhile. (The translator asks
            // only when a probe exists; without one the answer is "no HTTP answer".)
            let probe = self.probe
            Task.detached { [self] in
                let status = await probe?.status(of: url)
                state.withLock { state in
                    state.translator.noteProbeResult(entry: entry, status: status, at: .now)
                    flush(&state)
                }
                handle.wakeup()  // the loop recomputes its wait (timers, drains) afterwards
            }
        }
    }

    /// The event with fresh values where mpv's observed ones can be late. mpv fetches
    /// observed properties asynchronously and delivers the change whenever the fetch is done:
    /// on 0.35.1 `time-pos` and `duration` changes were seen arriving after SEEK and
    /// PLAYBACK_RESTART, and a `time-pos` fetched before a seek can follow that seek's SEEK.
    /// So positions are read when they are reported, and `duration` and `time-pos` are read
    /// at every PLAYBACK_RESTART so `started` carries the duration and `recovered` the
    /// position (the late changes then repeat the values and are dropped). The handle
    /// outlives the loop.
    private func refreshed(_ event: MPVEvent) -> [MPVEvent] {
        switch event {
        case .propertyChanged(.timePosition, _): [.propertyChanged(.timePosition, read(.timePosition))]
        case .playbackRestart:
            [.propertyChanged(.duration, read(.duration)), .propertyChanged(.timePosition, read(.timePosition)), event]
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
