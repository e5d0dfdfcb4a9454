import Dispatch

/// Runs blocking work (bcrypt, TagLib scans) on a dispatch queue and suspends the caller
/// until it is done, so no thread of Swift's cooperative pool (two on a 2-core machine,
/// shared by every request handler) is ever held by it.
enum Blocking {
    /// Runs `work` on `queue` (a concurrent global queue by default).
    static func run<Value: Sendable, Failure: Error>(
        on queue: DispatchQueue = .global(qos: .userInitiated),
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
