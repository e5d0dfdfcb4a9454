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

/// Polls `condition` every 10 ms until it holds or `limit` passes; returns whether it held.
/// 15 s by default: only a failure waits that long, and a full run on two busy cores has
/// starved such a loop's task for several seconds.
public func eventually(within limit: Duration = .seconds(15), _ condition: () -> Bool) async -> Bool {
    await eventually(within: limit) { () async -> Bool in condition() }
}

/// ``eventually(within:_:)`` for a condition that may ask an actor.
public func eventually(within limit: Duration = .seconds(15), _ condition: () async -> Bool) async -> Bool {
    (try? await waitForValue("", within: limit) { await condition() ? true : nil }) != nil
}

/// Waits until `condition` holds, polling as ``eventually(within:_:)`` does; throws
/// ``TestSupportError/timeout(_:)`` naming `what` when it has not within `limit`: for a
/// test that cannot go on without it. An error `condition` throws ends the wait with it.
public func waitUntil(_ what: @autoclosure () -> String, within limit: Duration = .seconds(30),
                      every interval: Duration = .milliseconds(10), _ condition: () async throws -> Bool) async throws {
    _ = try await waitForValue(what(), within: limit, every: interval) { try await condition() ? true : nil }
}

/// Polls `produce` every 10 ms until it gives a value, and returns it; throws
/// ``TestSupportError/timeout(_:)`` naming `what` when it has given none within `limit`.
/// An error `produce` throws ends the wait with it: a poll that may fail while the thing
/// is not there yet returns nil (`try?`) instead. `what` is worked out only on a timeout,
/// so it may describe the state at that moment (the last lines a process wrote).
///
/// The one polling loop of the tests: 30 s by default, since only a failure waits that long
/// and a whole-suite run on two busy cores has starved single tasks for seconds.
public func waitForValue<T>(_ what: @autoclosure () -> String, within limit: Duration = .seconds(30),
                            every interval: Duration = .milliseconds(10),
                            _ produce: () async throws -> T?) async throws -> T {
    let deadline = ContinuousClock.now + limit
    while true {
        if let value = try await produce() { return value }
        guard ContinuousClock.now < deadline else { throw TestSupportError.timeout(what()) }
        try await Task.sleep(for: interval)
    }
}

/// ``eventually(within:_:)`` for a thread that may not suspend (a `deinit`, a `stop()` that
/// is not async): blocks it between polls. Whether `condition` held within `limit`.
public func blockingEventually(within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(5),
                               _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
    return true
}

/// Runs `body`, then `cleanup` however `body` ended (returned or threw): for what must be
/// ended in order (the mhz before the station it plays from), where `defer` cannot await.
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return result
}
