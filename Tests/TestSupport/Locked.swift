import Synchronization

/// A mutex-guarded value in a class, so closures can capture it (a `Mutex` itself is
/// non-copyable and cannot be captured).
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Wraps an initial value.
    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with exclusive access.
    public func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }

    /// A copy of the current value.
    public var value: Value { mutex.withLock { $0 } }
}
