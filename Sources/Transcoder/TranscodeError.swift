/// Every way a transcoding fails, as values: the station decides what a listener is told
/// (a 404 for a song it cannot read, a 500 for a broken encoder) and what is logged, so
/// this layer carries facts only. `reason` fields are FFmpeg's own words (`av_strerror`).
public enum TranscodeError: Error, Sendable, Equatable {
    /// The step of the pipeline that failed, so a log line says where without parsing words.
    public enum Stage: String, Sendable, Equatable {
        /// Reading the input's packets (`av_read_frame`).
        case read
        /// Decoding them into samples (`avcodec_send_packet` / `avcodec_receive_frame`).
        case decode
        /// Converting samples to the encoder's format, rate and channels (libswresample).
        case resample
        /// Encoding (`avcodec_send_frame` / `avcodec_receive_packet`).
        case encode
        /// Writing the output: header, packets, trailer (libavformat's muxers).
        case mux
        /// Allocating FFmpeg's structures (out of memory, as a rule).
        case setup
    }

    /// The input is not a file FFmpeg can open as media: missing, unreadable, not a known
    /// container (`avformat_open_input` or `avformat_find_stream_info` failed).
    case cannotOpen(path: String, reason: String)
    /// FFmpeg's libraries could not be loaded (they are opened with dlopen when the first
    /// song is transcoded); `reason` is the dynamic loader's.
    case librariesUnavailable(reason: String)
    /// The input opened but holds no audio stream (a picture, a video without sound).
    case noAudioStream(path: String)
    /// This FFmpeg build has no decoder for the input's codec (FFmpeg's codec name).
    case decoderUnavailable(codec: String)
    /// This FFmpeg build has no such encoder (it is built without libmp3lame).
    case encoderUnavailable(String)
    /// The bit rate asked (kbit/s) is not one of `AudioTranscoder.supportedBitrates`.
    case unsupportedBitrate(kbps: Int)
    /// The output file of `AudioTranscoder.transcode(input:to:kbps:)` or of
    /// ``PeriodJoiner/join(input:periodStarts:output:)`` cannot be written (whichever
    /// bytes it refused); `reason` is the system's words (`strerror`).
    case cannotWrite(path: String, reason: String)
    /// A step of the pipeline failed on the way.
    case failed(stage: Stage, reason: String)
    /// The periods of a file cannot be made one stream by ``PeriodJoiner``: `obstacle`
    /// says what stands in the way.
    case unjoinable(JoinObstacle)
}

/// What keeps ``PeriodJoiner`` from joining a file's periods.
public enum JoinObstacle: Sendable, Equatable {
    /// A period carries video: only audio is re-encoded or given new timestamps.
    case video
    /// The container cannot have periods appended after its first bytes (MP4 keeps its
    /// index in the init segment): the demuxer's name.
    case container(String)
    /// A period's audio carries no timestamps to continue from.
    case noTimestamps
    /// The period starts are not increasing offsets inside the file.
    case badPeriods
}
