import Foundation

/// libcurl's own account of a timeout ("Operation timed out after 1001 milliseconds with 0
/// bytes received"), for tests that must check a timeout's length on a loaded machine:
/// the wall clock of an awaiting test includes however long the scheduler took to resume
/// it, curl's figure does not.
public enum CurlTiming {
    /// The milliseconds in a curl timeout message, if it is one.
    public static func milliseconds(in detail: String) -> Int? {
        guard let after = detail.range(of: "timed out after ") else { return nil }
        return Int(detail[after.upperBound...].prefix { $0.isNumber })
    }
}
