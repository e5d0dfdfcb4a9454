import Adapters
import Transcoder

extension PeriodJoinRepair {
    /// The repair the downloads use, its failures in the command line's words.
    init() {
        self.init(describe: RepairText.describe)
    }
}

/// What stops a join of a download's periods, in words for the log.
enum RepairText {
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
