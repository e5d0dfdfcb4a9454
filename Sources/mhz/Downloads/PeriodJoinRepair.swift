import Downloads
import Foundation
import Transcoder

/// The downloads' ``DiscontinuityRepair`` over FFmpeg's libraries: ``PeriodJoiner`` keeps
/// the periods that continue the first and appends the others retimed or re-encoded in
/// its codec. What stops it is said for the log, and the file is kept as it came.
struct PeriodJoinRepair: DiscontinuityRepair {
    /// Joins `input`'s periods into `output` when they need it (blocking: the fetcher calls
    /// it on a thread of its own).
    func repair(_ input: String, periodStarts: [Int64], output: String) -> PeriodRepair {
        do throws(TranscodeError) {
            guard let report = try PeriodJoiner.join(input: input, periodStarts: periodStarts, output: output) else {
                return .notNeeded
            }
            return .repaired(keptBytes: report.keptBytes, retimed: report.retimed, reencoded: report.reencoded)
        } catch {
            return .failed(reason: Self.describe(error))
        }
    }

    /// A joiner's failure in words for the log.
    static func describe(_ error: TranscodeError) -> String {
        switch error {
        case .unjoinable(.video): "a period carries video, which mhz does not re-encode"
        case .unjoinable(.container(let name)): "its container (\(name)) cannot be continued by appending"
        case .unjoinable(.noTimestamps): "a period's audio has no timestamps"
        case .unjoinable(.badPeriods): "the recorded period starts do not fit the file"
        case .librariesUnavailable(let reason): "FFmpeg's libraries cannot be loaded (\(reason))"
        case .cannotOpen(let path, let reason): "\(path) cannot be read as media (\(reason))"
        case .noAudioStream(let path): "\(path) has no audio"
        case .decoderUnavailable(let codec): "FFmpeg has no decoder for \(codec)"
        case .encoderUnavailable(let codec): "FFmpeg has no encoder for \(codec)"
        case .cannotWrite(let path, let reason): "cannot write \(path) (\(reason))"
        case .failed(let stage, let reason): "FFmpeg failed to \(stage.rawValue) (\(reason))"
        case .unsupportedBitrate(let kbps): "\(kbps) kbit/s is no MP3 bit rate"
        }
    }
}
