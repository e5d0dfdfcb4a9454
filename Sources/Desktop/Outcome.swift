import Foundation
import Synchronization

/// A result one thread waits for and the bus thread delivers.
final class Outcome: Sendable {
    private let result = Mutex<Result<String, DesktopError>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Delivers the result; only the first counts.
    func finish(_ value: Result<String, DesktopError>) {
        let first = result.withLock { result in
            defer { if result == nil { result = value } }
            return result == nil
        }
        if first { ready.signal() }
    }

    /// Waits for the result, at most `timeout`.
    func wait(timeout: Duration, what: String) throws(DesktopError) -> String {
        _ = ready.wait(timeout: .now() + .milliseconds(Int(timeout.milliseconds)))
        switch result.withLock({ $0 }) {
        case .success(let value): return value
        case .failure(let error): throw error
        case nil: throw .timeout(what)
        }
    }
}
