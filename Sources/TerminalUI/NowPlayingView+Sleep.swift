import Foundation

extension NowPlayingView {
    /// "Sleep in 29:41." (or "Sleep in 1:02:00."): the time the sleep timer has left, from
    /// `now`, rounded up to the second so it reads 0:01 until the end.
    public static func sleepText(until ends: Date, now: Date = Date()) -> String {
        let left = max(0, Int(ends.timeIntervalSince(now).rounded(.up)))
        let (hours, minutes, seconds) = (left / 3600, left / 60 % 60, left % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
        return "Sleep in \(clock)."
    }
}
