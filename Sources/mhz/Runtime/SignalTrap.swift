import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a call on a dispatch queue, so they can stop the radio
/// cleanly (progress saved, terminal restored) instead of killing the process mid-write.
// Dispatch sources are thread-safe objects the SDK does not mark Sendable; the array is
// immutable after init.
final class SignalTrap: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Installs the trap; `handler` runs once per delivered signal.
    init(signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "mhz.signals")
        sources = signals.map { number in
            // The default disposition must be ignored, or the signal kills the process
            // before the dispatch source sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
