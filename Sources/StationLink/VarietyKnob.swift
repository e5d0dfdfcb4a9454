import Synchronization

/// The variety dial of one playing radio, shared by the requests that carry it
/// (``StationClient``) and the keys that turn it (the terminal UI's `VarietyDial`, a
/// conformance the composition root makes).
/// `nil` until the configuration sets it or a key turns it: requests then carry none and
/// the station uses its own default.
public final class VarietyKnob: Sendable {
    /// What a station uses when a request names no variety (mhz's station: 0.5).
    public static let stationDefault = 0.5

    private let current: Mutex<Double?>

    /// A dial at `value` (nil: not set).
    public init(_ value: Double?) {
        current = Mutex(value)
    }

    /// The dial now, if set.
    public var value: Double? {
        current.withLock { $0 }
    }

    /// Turns the dial by `step` from where it is (the station's default when unset), kept
    /// within 0…1 in steps of a tenth; the new value.
    public func turn(by step: Double) -> Double {
        current.withLock { value in
            let turned = (((value ?? Self.stationDefault) + step) * 10).rounded() / 10
            let kept = min(max(turned, 0), 1)
            value = kept
            return kept
        }
    }
}
