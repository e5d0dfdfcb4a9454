import CFFmpeg
import Foundation
import POSIXFile

/// Makes one stream that decodes end to end out of a file whose periods (byte ranges that
/// were made apart: an HLS stream's runs of segments between discontinuities, an ad break
/// stitched in) do not continue one another.
///
/// Each period is read by libavformat from its own byte range. A period *continues* the
/// ones before it when its audio has the first period's codec, sample rate and channel
/// count, and its first timestamp is where the previous period's audio ended (within a
/// tenth of a second). The periods up to the first that does not are kept byte for byte;
/// from that one on, each is appended in the first period's container and stream (its
/// MPEG-TS PID, program and PMT PID, continuity counters going on), with timestamps that
/// continue the kept bytes': a period in the first period's codec is copied packet by
/// packet with its timestamps moved, any other is decoded, resampled to the first
/// period's rate and channels (libswresample) and encoded in its codec at its bit rate.
/// Nothing is dropped: every period's every packet or sample is in the result.
///
/// MPEG-TS, ADTS (packed AAC) and MP3 can be continued this way; a fragmented MP4, whose
/// index is in its init segment, cannot, nor can a period with video
/// (``TranscodeError/unjoinable(_:)``).
///
/// **Blocking**: it demuxes every period once to decide, and again the ones it appends.
public enum PeriodJoiner {
    /// What a join did.
    public struct Report: Sendable, Equatable {
        /// Bytes of the input at the start of the result unchanged: the periods that
        /// continue the first.
        public var keptBytes: Int64
        /// Periods appended with their packets copied and their timestamps moved.
        public var retimed: Int
        /// Periods decoded and encoded in the first period's codec.
        public var reencoded: Int
    }

    /// How far apart (seconds) the end of a period and the start of the next may be and
    /// still continue one another: rounding of packet durations, not a gap anyone hears.
    static let tolerance = 0.1

    /// Joins the periods of `input` that start at `periodStarts` (byte offsets after the
    /// first period's, increasing) into `output`, written anew.
    ///
    /// - Returns: nil when every period continues the first: nothing needs doing and
    ///   nothing is written.
    /// - Throws: `.unjoinable` for what cannot be joined this way, `.cannotOpen`,
    ///   `.noAudioStream`, `.decoderUnavailable`, `.encoderUnavailable` for a period that
    ///   cannot be read or written, `.cannotWrite` for the output. `output` is removed then.
    public static func join(input: String, periodStarts: [Int64], output: String) throws(TranscodeError) -> Report? {
        guard mhz_ffmpeg_available() != 0 else {
            throw .librariesUnavailable(reason: String(cString: mhz_ffmpeg_load_error()))
        }
        let descriptor = Glibc.open(input, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: input, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        _ = fstat(descriptor, &info)
        let size = Int64(info.st_size)
        let bounds = [0] + periodStarts + [size]
        guard zip(bounds, bounds.dropFirst()).allSatisfy({ $0 < $1 }) else { throw .unjoinable(.badPeriods) }
        let ranges = zip(bounds, bounds.dropFirst()).map { (start: $0, length: $1 - $0) }
        func period(_ index: Int) throws(TranscodeError) -> PeriodInput {
            try PeriodInput(descriptor: descriptor, start: ranges[index].start, length: ranges[index].length,
                            label: "\(input) period \(index + 1) (bytes \(ranges[index].start)-)")
        }

        var summaries: [PeriodSummary] = []
        for index in ranges.indices { summaries.append(try PeriodSummary(try period(index))) }
        guard let first = (1..<summaries.count).first(where: { !summaries[$0].continues(summaries[$0 - 1], first: summaries[0]) })
        else { return nil }
        guard let keptEnd = summaries[first - 1].end else { throw .unjoinable(.noTimestamps) }

        let reference = try period(0)
        guard let muxerName = PeriodMuxer.muxerName(forDemuxer: reference.formatName) else {
            throw .unjoinable(.container(reference.formatName))
        }
        let target = UnsafePointer(reference.parameters)
        let written = Glibc.open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard written >= 0 else { throw .cannotWrite(path: output, reason: String(cString: strerror(errno))) }
        var done = false
        defer { if !done { unlink(output) } }
        defer { close(written) }
        let kept = ranges[first].start
        let continuity = try copyPrefix(descriptor, length: kept, to: written, output: output, transportStream: muxerName == "mpegts")

        // The stream takes the encoder's parameters when any period is re-encoded (MPEG-TS
        // needs AAC's extradata to frame raw packets), else the first period's.
        let reencode = summaries[first...].contains { !$0.sameCodec(as: summaries[0]) }
        var encoder: EncoderContext? = reencode ? try PeriodEncoder.open(like: target) : nil
        let muxer = try PeriodMuxer(name: muxerName, descriptor: written, path: output, pid: reference.stream.pointee.id,
                                    program: reference.program, continuity: continuity) { (parameters) throws(TranscodeError) in
            if let encoder {
                try encoder.copyParameters(to: parameters)
            } else {
                try FFmpegStatus.check(mhz_avcodec_parameters_copy(parameters, target), .setup)
            }
        }
        var next = mhz_av_rescale_q(keptEnd, summaries[first - 1].timeBase, muxer.timeBase)
        var report = Report(keptBytes: kept, retimed: 0, reencoded: 0)
        for index in first..<ranges.count {
            let source = try period(index)
            var shift = Retiming(start: next, output: muxer.timeBase)
            if summaries[index].sameCodec(as: summaries[0]) {
                while let packet = try source.nextPacket() {
                    shift.apply(to: packet, from: source.timeBase)
                    try muxer.write(packet)
                }
                report.retimed += 1
            } else {
                // The first re-encoded period takes the encoder made for the stream's
                // parameters; each later one a new one (a flushed encoder takes no more).
                let periodEncoder: EncoderContext
                if let made = encoder { periodEncoder = made } else { periodEncoder = try PeriodEncoder.open(like: target) }
                encoder = nil
                let converter = try SampleConverter(output: periodEncoder.format)
                let deliver = { (packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) in
                    shift.apply(to: packet, from: periodEncoder.timeBase)
                    try muxer.write(packet)
                }
                try source.decode { (frame) throws(TranscodeError) in
                    try converter.push(frame)
                    try PeriodEncoder.encode(periodEncoder, from: converter, final: false, deliver: deliver)
                }
                try converter.flush()
                try PeriodEncoder.encode(periodEncoder, from: converter, final: true, deliver: deliver)
                report.reencoded += 1
            }
            next = shift.end
        }
        try muxer.finish()
        done = true
        return report
    }

    /// Copies the kept bytes into the output, noting their MPEG-TS continuity counters
    /// when they are whole packets (the counters of what follows go on from them).
    private static func copyPrefix(_ input: Int32, length: Int64, to output: Int32, output path: String,
                                   transportStream: Bool) throws(TranscodeError) -> TSContinuity? {
        var continuity: TSContinuity? = transportStream ? TSContinuity() : nil
        // Whole packets per block, so each block is observed on its own.
        let block = TSContinuity.packetSize * 5000
        var buffer = [UInt8](repeating: 0, count: block)
        var offset: Int64 = 0
        while offset < length {
            let wanted = Int(min(Int64(block), length - offset))
            let count = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .failed(stage: .read, reason: String(cString: strerror(count < 0 ? errno : EIO))) }
            let failure = buffer.withUnsafeBytes { raw -> Int32 in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[..<count])
                if continuity != nil {
                    if TSContinuity.isTransportStream(bytes) { continuity!.observe(bytes) } else { continuity = nil }
                }
                return DescriptorWriter.writeAll(bytes, to: output)
            }
            if failure != 0 { throw .cannotWrite(path: path, reason: String(cString: strerror(failure))) }
            offset += Int64(count)
        }
        return continuity
    }
}

/// Timestamps of one appended period moved to continue where the output stands: its first
/// packet lands at `start`, the others keep their distance from it.
struct Retiming {
    /// Where the period's first packet goes, in the output's time base.
    let start: Int64
    /// The output's time base.
    let output: AVRational
    /// The period's first timestamp, in its own time base.
    private var origin: Int64?
    /// Where the period's audio ends so far, in the output's time base.
    private(set) var end: Int64

    /// Retiming that puts the period's first packet at `start` (in `output`).
    init(start: Int64, output: AVRational) {
        self.start = start
        self.output = output
        end = start
    }

    /// Moves `packet`'s timestamps from `source` to the output's, continuing the output; a
    /// packet without one follows the one before.
    mutating func apply(to packet: UnsafeMutablePointer<AVPacket>, from source: AVRational) {
        let none = cffmpeg_nopts_value()
        let duration = mhz_av_rescale_q(packet.pointee.duration, source, output)
        var pts = end
        if packet.pointee.pts != none {
            let origin = self.origin ?? packet.pointee.pts
            self.origin = origin
            pts = start + mhz_av_rescale_q(packet.pointee.pts - origin, source, output)
        }
        packet.pointee.pts = pts
        packet.pointee.dts = pts
        packet.pointee.duration = duration
        end = max(end, pts + duration)
    }
}
