import CFFmpeg
import Foundation

/// Where a live broadcast's songs come from, asked by ``LiveEncoder`` on its thread.
public protocol LiveAudioSource: AnyObject {
    /// The song to play next, asked once the song playing is decoded to its end (a crossfade
    /// before its last sample) or when nothing plays; `nil` when there is none for now (then
    /// the song playing ends as it is, or the broadcast carries silence, and asks again a
    /// frame later).
    func nextInput() -> LiveInput?
    /// The song `nextInput` gave last starts at the broadcast's sample `sample`, fading in
    /// over `fadeIn` samples (0: at full level from its first sample) while the song before
    /// it fades out: it is the song on the air from the middle of that fade on.
    func inputStarted(_ input: LiveInput, at sample: Int64, fadeIn: Int64)
    /// The song `nextInput` gave last cannot be played: it never starts.
    func inputFailed(_ input: LiveInput, error: TranscodeError)
}

/// The audio of one live broadcast cut into HLS segments: each song decoded once and
/// converted to 44.1 kHz stereo at its gain, overlapping the next by the crossfade
/// (``LiveMixer``), and every frame of 1024 samples encoded once per variant
/// (``AACEncoder``, AAC-LC at each bit rate) and muxed into MPEG-TS (``TSSegmentMuxer``).
/// Songs follow one another without a gap and without a break in the timestamps: one
/// encoder per variant runs for the whole broadcast.
///
/// Time is counted in samples on one clock that starts at ``init(bitrates:firstSample:crossfade:source:)``'s
/// `firstSample`; a segment holds the packets whose first sample is at or after its start
/// and before its end, and since every variant's packets start at the same samples, the
/// variants' segments have the same boundaries.
///
/// **Blocking** and not `Sendable`: the broadcast calls it from its own thread.
public final class LiveEncoder {
    /// The broadcast's sample rate (Hz).
    public static let sampleRate: Int32 = 44100
    /// The variants' bit rates (kbit/s), in the order segments list them.
    public let bitrates: [Int]

    private let mixer: LiveMixer
    private let encoders: [EncoderContext]
    /// Per variant: the segment being filled, and the last one finished (for counters).
    private var open: [TSSegmentMuxer?]
    private var previous: [[UInt8]]
    /// Per variant: the segment finished in this call, and the first packet's sample of
    /// the one being filled.
    private var finished: [[UInt8]?]
    private var starts: [Int64?]
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The first sample of the next frame to encode.
    private var nextSample: Int64
    /// Where the audio being filled started (the first packet's sample, priming included).
    private var segmentStart: Int64?

    /// Opens one encoder per bit rate; the first frame carries sample `firstSample`, and
    /// songs overlap by `crossfade` samples (0: one starts at the previous one's last
    /// sample).
    public init(bitrates: [Int], firstSample: Int64, crossfade: Int64 = 0, source: LiveAudioSource) throws(TranscodeError) {
        guard mhz_ffmpeg_available() != 0 else {
            throw .librariesUnavailable(reason: String(cString: mhz_ffmpeg_load_error()))
        }
        self.bitrates = bitrates
        nextSample = firstSample
        var encoders: [EncoderContext] = []
        for kbps in bitrates { encoders.append(try AACEncoder.open(kbps: kbps)) }
        self.encoders = encoders
        mixer = try LiveMixer(source: source, format: OutputFormat(sampleRate: Self.sampleRate, channels: 2,
                                                                   sampleFormat: AV_SAMPLE_FMT_FLTP),
                              frameSize: encoders.first?.frameSize ?? 1024, crossfade: crossfade)
        open = Array(repeating: nil, count: bitrates.count)
        previous = Array(repeating: [], count: bitrates.count)
        finished = Array(repeating: nil, count: bitrates.count)
        starts = Array(repeating: nil, count: bitrates.count)
        guard let frame = mhz_av_frame_alloc() else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.frame = frame
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Self.sampleRate
        frame.pointee.nb_samples = encoders.first?.frameSize ?? 1024
        cffmpeg_layout_default(&frame.pointee.ch_layout, 2)
        try FFmpegStatus.check(mhz_av_frame_get_buffer(frame, 0), .setup)
    }

    deinit {
        mhz_av_frame_free(&frame)
    }

    /// How many samples before the first frame's the first segment starts: the encoders'
    /// priming (1024 for AAC).
    public var priming: Int64 { encoders.first?.priming ?? 0 }

    /// One segment of every variant, all ending at the same sample.
    public struct Segment: Sendable {
        /// The first sample of its first packet.
        public let start: Int64
        /// The first sample of the next segment's first packet.
        public let end: Int64
        /// Its MPEG-TS bytes, one per bit rate in ``LiveEncoder/bitrates``' order.
        public let variants: [[UInt8]]

        /// Its length in seconds.
        public var duration: Double { Double(end - start) / Double(LiveEncoder.sampleRate) }
    }

    /// Encodes until every variant has a packet starting at or past `boundary` and
    /// returns the segment before it. Asks the source for songs as they end.
    public func segment(endingAt boundary: Int64) throws(TranscodeError) -> Segment {
        while finished.contains(where: { $0 == nil }) {
            try encodeFrame(boundary: boundary)
        }
        let start = segmentStart ?? 0
        let end = starts[0] ?? boundary
        let variants = finished.map { $0 ?? [] }
        finished = Array(repeating: nil, count: bitrates.count)
        segmentStart = end
        return Segment(start: start, end: end, variants: variants)
    }

    /// Ends the song playing now (a vote to skip it): the next one fades in within a second,
    /// or, without a crossfade, starts once what is decoded of it has played
    /// (``LiveMixer/endInput()``).
    public func endInput() {
        mixer.endInput()
    }

    /// Encodes one frame into every variant, cutting a variant's segment at `boundary`.
    private func encodeFrame(boundary: Int64) throws(TranscodeError) {
        guard let frame else { return }
        let size = encoders[0].frameSize
        frame.pointee.nb_samples = size
        try FFmpegStatus.check(mhz_av_frame_make_writable(frame), .encode)
        try mixer.fill(frame, count: size, at: nextSample)
        frame.pointee.pts = nextSample
        nextSample += Int64(size)
        for index in encoders.indices {
            try encoders[index].encode(frame) { (packet) throws(TranscodeError) in
                try self.mux(packet, variant: index, boundary: boundary)
            }
        }
    }

    /// Puts the packet into its variant's segment, finishing that segment first when the
    /// packet starts at or past its end.
    private func mux(_ packet: UnsafeMutablePointer<AVPacket>, variant: Int, boundary: Int64) throws(TranscodeError) {
        let pts = packet.pointee.pts
        if segmentStart == nil { segmentStart = pts }
        if pts >= boundary, finished[variant] == nil, let muxer = open[variant] {
            let bytes = try muxer.finish()
            finished[variant] = bytes
            previous[variant] = bytes
            open[variant] = nil
            starts[variant] = pts
        }
        if open[variant] == nil {
            open[variant] = try TSSegmentMuxer(encoder: encoders[variant], previous: previous[variant])
        }
        try open[variant]!.write(packet)
    }
}
