import Foundation

/// A sleep timer's time in words: what `sleep 30m`, `mhz --sleep 1h` and a `[keys]` binding
/// read, and how a time is written back. Apart from ``SleepTimer`` (which runs the timer) so
/// that the command vocabulary (``RadioCommand``, ``CommandWord``) needs nothing of the
/// machine: `script/fuzz command` builds it from the command files alone.
public enum SleepTime {
    /// The longest timer, a year: a clock's wait is kept in whole milliseconds or
    /// attoseconds, which a time of 10^20 seconds would overflow.
    public static let longest = 365 * 86_400.0

    /// Reads `90s`, `30m`, `1h` or a plain number of seconds (fractions allowed) into
    /// seconds; nil for anything else, for no time at all, or past ``longest``.
    public static func seconds(_ text: String) -> Double? {
        let lowered = text.lowercased()
        let units: [(String, Double)] = [("s", 1), ("m", 60), ("h", 3600)]
        let (digits, scale) = units.first { lowered.hasSuffix($0.0) }.map { (String(lowered.dropLast()), $0.1) }
            ?? (lowered, 1)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(digits),
              value.isFinite, value > 0, value * scale <= longest else { return nil }
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
