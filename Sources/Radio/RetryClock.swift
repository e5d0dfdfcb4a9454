/// How the radio waits before trying the station again: the report courier's backoff and
/// the list fetch's retry timer both sleep through it.
///
/// Why a type of its own: "every report reaches the station once" is a claim about what
/// happens after the whole retry schedule has run (1, 2, 4 s… by default). With the real
/// clock a test could only sleep that long, or check too early; a test's clock steps
/// through every wait at once and then shows that no retry is left to send anything again.
public struct RetryClock: Sendable {
    private let wait: @Sendable (Double) async throws -> Void

    /// A clock whose `sleep(seconds:)` runs `wait`; it must throw (or return early) when the
    /// task is cancelled, as `Task.sleep` does, so a retry taken back never fires.
    public init(wait: @escaping @Sendable (_ seconds: Double) async throws -> Void) {
        self.wait = wait
    }

    /// Waits `seconds` on this clock; throws `CancellationError` when the task is cancelled.
    public func sleep(seconds: Double) async throws {
        try await wait(seconds)
    }

    /// The real clock: `Task.sleep`, to the millisecond.
    public static let system = RetryClock { seconds in
        try await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded())))
    }
}
