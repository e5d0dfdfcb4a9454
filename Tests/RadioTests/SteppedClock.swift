import Radio
import Synchronization

/// A retry clock the test moves by hand: every wait on it lasts until ``fire()``, so a test
/// can run a whole retry schedule at once, and show that nothing waits any more (no retry
/// left that could send a report again).
final class SteppedClock: Sendable {
    private struct State {
        var next = 0
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        var cancelledEarly: Set<Int> = []
        var asked: [Double] = []
    }
    private let state = Mutex(State())

    /// The clock to hand to a session.
    var clock: RetryClock { RetryClock { [self] seconds in try await self.sleep(seconds) } }

    /// How many waits are under way now.
    var pending: Int { state.withLock { $0.waiting.count } }

    /// Every wait asked for, in seconds, in order.
    var asked: [Double] { state.withLock { $0.asked } }

    /// Ends every wait under way now (as if its time had passed); returns how many.
    @discardableResult
    func fire() -> Int {
        let waiters = state.withLock { s in
            defer { s.waiting.removeAll() }
            return Array(s.waiting.values)
        }
        waiters.forEach { $0.resume() }
        return waiters.count
    }

    private func sleep(_ seconds: Double) async throws {
        let id = state.withLock { s in
            s.next += 1
            s.asked.append(seconds)
            return s.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { s in
                    if s.cancelledEarly.remove(id) != nil { return true }
                    s.waiting[id] = continuation
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            // As Task.sleep: a cancelled wait ends at once with CancellationError.
            let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                if let waiter = s.waiting.removeValue(forKey: id) { return waiter }
                s.cancelledEarly.insert(id)
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
