import Foundation

/// `EXT-X-PROGRAM-DATE-TIME` values: ISO 8601 date-times with or without fractional
/// seconds, with `Z`, `±hh:mm` or `±hhmm` (RFC 8216 §4.3.2.6; packagers write all three).
enum ProgramDateTime {
    /// The date, or nil when the value is not one (the tag is then ignored).
    static func parse(_ text: String) -> Date? {
        var value = text.trimmingCharacters(in: .whitespaces)
        // RFC 3339 dates are ASCII. ICU takes other scripts' digits too (a Devanagari ३ in a
        // fraction of a second, found by script/fuzz live), which would get past the cut of
        // long fractions below and divide by zero there.
        guard value.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        // `+0800` → `+08:00`: the formatter wants the colon form.
        if let sign = value.lastIndex(where: { $0 == "+" || $0 == "-" }), value.distance(from: sign, to: value.endIndex) == 5,
           value[value.index(after: sign)...].allSatisfy(\.isNumber), value.contains("T")
        {
            value.insert(":", at: value.index(sign, offsetBy: 3))
        }
        // ICU, under ISO8601DateFormatter, divides by zero on a long fraction of a second
        // (40 digits; found by script/fuzz playlist). Digits past nanoseconds say nothing,
        // so they are cut.
        if let dot = value.firstIndex(of: ".") {
            let digits = value[value.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
            if digits.count > 9 { value.removeSubrange(value.index(digits.startIndex, offsetBy: 9)..<digits.endIndex) }
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: value) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: value)
    }
}
