import Foundation

/// A gate the analysis' workers pass before each file, for tests that must prove what the
/// station does *while* it analyses (answers lists at once), or what a stop in the middle
/// leaves, by the order of events rather than by timing: the test holds the gate closed,
/// waits until a worker stands at it, acts, then lets workers through. A station without
/// one never waits.
package final class AnalysisGate: Sendable {
    private struct State {
        var open: Bool
        /// Workers that may still pass while the gate is closed.
        var allowance = 0
        /// Workers that reached the gate so far (passed or waiting).
        var arrivals = 0
        /// Tests waiting for a number of arrivals.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let condition = NSCondition()
    nonisolated(unsafe) private var state: State

    /// A gate, closed unless `open`.
    package init(open: Bool = false) {
        state = State(open: open)
    }

    /// Blocks the calling worker thread while the gate is closed and no pass is allowed.
    func pass() {
        condition.lock()
        state.arrivals += 1
        let arrivals = state.arrivals
        let ready = state.watchers.filter { $0.count <= arrivals }
        state.watchers.removeAll { $0.count <= arrivals }
        condition.unlock()
        for watcher in ready { watcher.continuation.resume() }
        condition.lock()
        while !state.open, state.allowance == 0 { condition.wait() }
        if !state.open { state.allowance -= 1 }
        condition.unlock()
    }

    /// Returns once `count` workers in all have reached the gate (at once when they have).
    package func arrival(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if state.arrivals >= count {
                condition.unlock()
                continuation.resume()
            } else {
                state.watchers.append((count, continuation))
                condition.unlock()
            }
        }
    }

    /// Lets `count` more workers through while the gate stays closed.
    package func allow(_ count: Int) {
        condition.lock()
        state.allowance += count
        condition.broadcast()
        condition.unlock()
    }

    /// Lets every worker through, now and from now on.
    package func open() {
        condition.lock()
        state.open = true
        condition.broadcast()
        condition.unlock()
    }
}
