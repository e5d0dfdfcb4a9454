import Foundation

/// Runs `operation`, failing with ``TestSupportError/timeout(_:)`` if it has not finished
/// within `limit`: an await that may never return (a session that never quits, a stream
/// that never ends) must not hang the test run. The operation is cancelled when late.
public func within<T: Sendable>(_ limit: Duration, _ what: String,
                                _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw TestSupportError.timeout("\(what) within \(limit)")
        }
        group.cancelAll()
        return value
    }
}
