/// The sleep timer (`sleep DURATION`, `mhz --sleep`): when it runs out mhz fades to
/// silence over the last min(10 s, duration), stops with the position saved, puts the
/// volume back for the next start and quits.
///
/// It is driven like the retry timer: each wait is a ``RadioEffect/scheduleSleep(after:token:endsIn:)``
/// whose ``RadioInput/sleepTimer(token:)`` comes back through the session's clock; a
/// token no longer held (the timer was set again, or turned off) does nothing.
public struct SleepTimer: Sendable, Equatable {
    /// How many steps the fade takes: the volume drops by a tenth of where it was each time.
    public static let fadeSteps = 10
    /// The longest fade.
    public static let longestFade = 10.0

    /// The token the next firing carries.
    public var token: Int
    /// The volume before the fade, put back at the end (and when the timer is turned off
    /// midway).
    public var volume: Int
    /// The wait between two steps of the fade.
    public var interval: Double
    /// Where it is.
    public var stage: Stage

    /// Where a sleep timer is.
    public enum Stage: Sendable, Equatable {
        /// Waiting for the fade to begin.
        case waiting
        /// Fading: this many steps have lowered the volume so far.
        case fading(step: Int)
    }

    /// For a timer of `seconds`: how long before its fade begins (the fade takes the last
    /// min(``longestFade``, `seconds`)), and the wait between two of its steps.
    public static func timing(of seconds: Double) -> (fadeBegins: Double, step: Double) {
        let fade = min(longestFade, seconds)
        return (seconds - fade, fade / Double(fadeSteps))
    }

    /// The volume after `step` of the fade's steps, from `volume`: a tenth less each step,
    /// silence at the last.
    public static func level(from volume: Int, step: Int) -> Int {
        volume * (fadeSteps - step) / fadeSteps
    }

    /// Reads `90s`, `30m`, `1h` or a plain number of seconds (fractions allowed) into
    /// seconds; nil for anything else, or for no time at all.
    public static func seconds(_ text: String) -> Double? {
        let lowered = text.lowercased()
        let units: [(String, Double)] = [("s", 1), ("m", 60), ("h", 3600)]
        let (digits, scale) = units.first { lowered.hasSuffix($0.0) }.map { (String(lowered.dropLast()), $0.1) }
            ?? (lowered, 1)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(digits),
              value.isFinite, value > 0 else { return nil }
        return value * scale
    }

    /// `1h`, `30m`, `90s`, `2.5s`: the shortest way to write `seconds` back.
    public static func text(_ seconds: Double) -> String {
        func whole(_ value: Double) -> String {
            value == value.rounded() && value < 1e15 ? String(Int(value)) : String(value)
        }
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(whole(seconds / 3600))h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(whole(seconds / 60))m" }
        return "\(whole(seconds))s"
    }
}
