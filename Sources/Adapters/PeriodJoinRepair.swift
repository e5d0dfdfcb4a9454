import Downloads
import Foundation
import Transcoder

/// The downloads' ``DiscontinuityRepair`` over FFmpeg's libraries: ``PeriodJoiner`` keeps
/// the periods that continue the first and appends the others retimed or re-encoded in
/// its codec. What stops it is said for the log, and the file is kept as it came.
public struct PeriodJoinRepair: DiscontinuityRepair {
    /// A joiner's failure in words for the log (the command line's, handed in).
    public let describe: @Sendable (TranscodeError) -> String

    /// A repair whose failures `describe` words.
    public init(describe: @escaping @Sendable (TranscodeError) -> String) {
        self.describe = describe
    }

    /// Joins `input`'s periods into `output` when they need it (blocking: the fetcher calls
    /// it on a thread of its own).
    public func repair(_ input: String, periodStarts: [Int64], output: String) -> PeriodRepair {
        do throws(TranscodeError) {
            guard let report = try PeriodJoiner.join(input: input, periodStarts: periodStarts, output: output) else {
                return .notNeeded
            }
            return .repaired(keptBytes: report.keptBytes, retimed: report.retimed, reencoded: report.reencoded)
        } catch {
            return .failed(reason: describe(error))
        }
    }
}
