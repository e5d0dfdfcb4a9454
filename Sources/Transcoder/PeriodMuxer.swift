import CFFmpeg
import POSIXFile

/// libavformat's muxer for the periods a join writes after the bytes it keeps: the first
/// period's container (MPEG-TS, ADTS or MP3) with one audio stream, writing straight to a
/// file descriptor (a ``MuxerContext`` whose sink writes through
/// `DescriptorWriter.writeAll`), in the PIDs and program of the first period and with
/// MPEG-TS continuity counters that go on from the kept bytes.
///
/// Timestamps are written as given (`mpegts_copyts`): the joiner makes them continue the
/// kept bytes'.
final class PeriodMuxer {
    private static let ioBufferSize: Int32 = 64 * 1024

    private let output: MuxerContext
    private let sink: FileSink

    /// The muxer for what a demuxer named `demuxer` read, or nil when that container cannot
    /// be continued by appending.
    static func muxerName(forDemuxer demuxer: String) -> String? {
        switch demuxer {
        case "mpegts": "mpegts"
        case "aac": "adts"
        case "mp3": "mp3"
        default: nil
        }
    }

    /// Sets up the muxer `name` for one stream whose parameters `describe` fills in, writing
    /// to `descriptor` after what `continuity` saw, and writes its header. `pid` and
    /// `program` place the stream as the first period had it (MPEG-TS only).
    init(name: String, descriptor: Int32, pid: Int32?, program: (number: Int32, pmtPID: Int32)?,
         continuity: TSContinuity?,
         describe: (UnsafeMutablePointer<AVCodecParameters>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        let sink = FileSink(descriptor: descriptor, continuity: continuity)
        self.sink = sink
        var options: [(key: String, value: String)] = []
        switch name {
        case "mpegts":
            options.append(("mpegts_copyts", "1"))
            if let program {
                options.append(("mpegts_service_id", "\(program.number)"))
                if (0x20..<0x1FFF).contains(program.pmtPID) { options.append(("mpegts_pmt_start_pid", "\(program.pmtPID)")) }
            }
        case "mp3":
            // No tags, no Xing frame: nothing but audio frames after the kept bytes.
            options += [("id3v2_version", "0"), ("write_id3v1", "0"), ("write_xing", "0")]
        default: break
        }
        output = try MuxerContext(muxer: name, bufferSize: Self.ioBufferSize, options: options, sink: sink.write) {
            (_, stream) throws(TranscodeError) in
            try describe(stream.pointee.codecpar)
            // The input's tag means nothing to this muxer: it picks its own.
            stream.pointee.codecpar.pointee.codec_tag = 0
            // mpegtsenc: a stream id of 16 or more is its PID.
            if let pid, (0x10..<0x1FFF).contains(pid) { stream.pointee.id = pid }
        }
    }

    /// The time base the muxer keeps the stream's timestamps in (set by the header:
    /// 1/90000 for MPEG-TS).
    var timeBase: AVRational { output.timeBase }

    /// Writes one packet, its timestamps already in ``timeBase``.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) {
        try output.write(packet)
    }

    /// Writes the trailer and flushes everything to the descriptor.
    func finish() throws(TranscodeError) {
        try output.writeTrailer()
        if !sink.leftover.isEmpty { throw .failed(stage: .mux, reason: "\(sink.leftover.count) bytes that are no whole MPEG-TS packet") }
    }
}

/// Where the output's sink puts the bytes: the output file, through the continuity
/// counters' rewrite for MPEG-TS.
private final class FileSink {
    let descriptor: Int32
    var continuity: TSContinuity?

    init(descriptor: Int32, continuity: TSContinuity?) {
        self.descriptor = descriptor
        self.continuity = continuity
    }

    /// Bytes the rewrite holds that make no whole packet.
    var leftover: [UInt8] { continuity?.remainder ?? [] }

    /// Writes `bytes` (rewritten for MPEG-TS); 0 or the `errno`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        if let packets = continuity?.patch(bytes) { return DescriptorWriter.writeAll(packets, to: descriptor) }
        return DescriptorWriter.writeAll(bytes, to: descriptor)
    }
}
