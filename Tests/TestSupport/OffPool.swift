import Foundation

/// Runs blocking work (ffmpeg, a tmux round trip, a socket read) on a thread of its own.
///
/// On Swift's cooperative pool it would hold one of its few threads (two on a 2-core
/// machine), which every test's tasks, event collectors and in-process servers share:
/// with a few such fixtures starting at once the whole test process stalled for seconds.
public func offPool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
    }
}
