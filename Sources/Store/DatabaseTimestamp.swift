import Foundation
import GRDB

/// Dates as mhz's database stores them: `yyyy-MM-dd HH:mm:ss.SSS` in UTC, the text GRDB
/// writes by default, written and read here by arithmetic instead of GRDB's `DateFormatter`
/// and `Calendar`.
///
/// Why: GRDB's default goes through `DateFormatter` to write and a Gregorian `Calendar` to
/// read, and both load ICU's calendar and locale data (megabytes of memory, milliseconds of
/// start-up) to save or read a playback position. The text is the same, so rows written
/// before and after compare and sort alike.
enum DatabaseTimestamp {
    /// The text for `date`, to the nearest millisecond, as GRDB's formatter rounds it. A
    /// date outside the years the text holds (0001–9999) is written as the nearest it
    /// holds: a row may come back with any date GRDB reads (a number of seconds such as
    /// 1e300 in a hand-edited file), and is written again as it was read.
    static func text(for date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let milliseconds = seconds.isNaN ? 0 : min(max((seconds * 1000).rounded(), Double(earliest)), Double(latest))
        return text(milliseconds: Int64(exactly: milliseconds) ?? 0)
    }

    /// 0001-01-01 00:00:00.000, in milliseconds since 1970: the earliest the text holds.
    static let earliest: Int64 = -62_135_596_800_000
    /// 9999-12-31 23:59:59.999, in milliseconds since 1970: the latest the text holds.
    static let latest: Int64 = 253_402_300_799_999

    private static func text(milliseconds: Int64) -> String {
        let (days, dayMilliseconds) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = dayMilliseconds / 3_600_000
        let minute = dayMilliseconds / 60_000 % 60
        let second = dayMilliseconds / 1000 % 60
        let millisecond = dayMilliseconds % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(millisecond, 3))"
    }

    /// The date a stored text means: `yyyy-MM-dd HH:mm:ss.SSS` as written by ``text(for:)``
    /// (the fraction optional, `T` accepted for the space), in UTC; nil for any other form,
    /// which the caller hands to GRDB's own reading.
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if bytes.count > 19 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 20, let digits = number(bytes, 20, bytes.count - 20)
            else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 20))
        }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The day counted from 1970-01-01 of a date in the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`, the inverse of ``civilDate(daysSince1970:)``).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day counted from 1970-01-01 in the proleptic Gregorian
    /// calendar (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The decimal number in `count` bytes from `start`, or nil if one is not a digit.
    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        guard count > 0, count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in bytes[start..<start + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A record whose dates are stored as ``DatabaseTimestamp`` text: written without GRDB's
/// `DateFormatter`, read back without its `Calendar`; a form mhz does not write is left
/// to GRDB.
public protocol TimestampedRecord: EncodableRecord, FetchableRecord {}

extension TimestampedRecord {
    /// Dates as GRDB writes them by default, without a `DateFormatter`.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .custom { DatabaseTimestamp.text(for: $0) }
    }

    /// Dates read back without GRDB's `Calendar`.
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .custom { value in String.fromDatabaseValue(value).flatMap(DatabaseTimestamp.date(from:)) ?? Date.fromDatabaseValue(value) }
    }
}
