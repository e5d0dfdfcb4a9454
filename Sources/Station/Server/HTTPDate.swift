import Foundation
import Synchronization

/// The `Date` header's value for now, RFC 9110 §5.6.7's IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), made once a second and shared: what Hummingbird's
/// own date cache gives the router's answers, for the answers ``LiveEdgeHandler`` writes.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Now, as a `Date` header.
    static func now() -> String {
        var clock = time(nil)
        let second = Int(clock)
        if let made = cache.withLock({ $0.second == second ? $0.text : nil }) { return made }
        let text = format(&clock)
        cache.withLock { $0 = (second, text) }
        return text
    }

    /// `seconds` since the epoch as an IMF-fixdate.
    static func format(_ seconds: inout time_t) -> String {
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
