import CFFmpeg
import POSIXFile

/// libavformat's muxer for the periods a join writes after the bytes it keeps: the first
/// period's container (MPEG-TS, ADTS or MP3) with one audio stream, writing straight to a
/// file descriptor (a ``MuxerContext`` whose sink writes through
/// `DescriptorWriter.writeAll`), in the PIDs and program of the first period and with
/// MPEG-TS continuity counters that go on from the kept bytes. A write the file refuses
/// is the output's failure, `.cannotWrite` with its path, as a refused write of the kept
/// bytes is.
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
    /// to `descriptor` (the file at `path`) after what `continuity` saw, and writes its
    /// header. `pid` and `program` place the stream as the first period had it (MPEG-TS
    /// only).
    init(name: String, descriptor: Int32, path: String, pid: Int32?, program: (number: Int32, pmtPID: Int32)?,
         continuity: TSContinuity?,
         describe: (UnsafeMutablePointer<AVCodecParameters>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        let sink = FileSink(descriptor: descriptor, path: path, continuity: continuity)
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
        do throws(TranscodeError) {
            output = try MuxerContext(muxer: name, bufferSize: Self.ioBufferSize, options: options, sink: sink.write) {
                (_, stream) throws(TranscodeError) in
                try describe(stream.pointee.codecpar)
                // The input's tag means nothing to this muxer: it picks its own.
                stream.pointee.codecpar.pointee.codec_tag = 0
                // mpegtsenc: a stream id of 16 or more is its PID.
                if let pid, (0x10..<0x1FFF).contains(pid) { stream.pointee.id = pid }
            }
        } catch {
            throw sink.failure(else: error)
        }
    }

    /// The time base the muxer keeps the stream's timestamps in (set by the header:
    /// 1/90000 for MPEG-TS).
    var timeBase: AVRational { output.timeBase }

    /// Writes one packet, its timestamps already in ``timeBase``.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) {
        do throws(TranscodeError) { try output.write(packet) } catch { throw sink.failure(else: error) }
    }

    /// Writes the trailer and flushes everything to the descriptor.
    func finish() throws(TranscodeError) {
        do throws(TranscodeError) { try output.writeTrailer() } catch { throw sink.failure(else: error) }
        if !sink.leftover.isEmpty { throw .failed(stage: .mux, reason: "\(sink.leftover.count) bytes that are no whole MPEG-TS packet") }
    }
}

/// Where the output's sink puts the bytes: the output file, through the continuity
/// counters' rewrite for MPEG-TS.
private final class FileSink {
    let descriptor: Int32
    /// The file's path, for its failure.
    let path: String
    var continuity: TSContinuity?
    /// The `errno` the file refused bytes with.
    private var refusal: Int32?

    init(descriptor: Int32, path: String, continuity: TSContinuity?) {
        self.descriptor = descriptor
        self.path = path
        self.continuity = continuity
    }

    /// The file's failure when it refused bytes (the muxer's `error` is then that refusal),
    /// else `error`.
    func failure(else error: TranscodeError) -> TranscodeError {
        guard let refusal else { return error }
        return .cannotWrite(path: path, reason: String(cString: strerror(refusal)))
    }

    /// Bytes the rewrite holds that make no whole packet.
    var leftover: [UInt8] { continuity?.remainder ?? [] }

    /// Writes `bytes` (rewritten for MPEG-TS); 0 or the `errno`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let status: Int32
        if let packets = continuity?.patch(bytes) {
            status = DescriptorWriter.writeAll(packets, to: descriptor)
        } else {
            status = DescriptorWriter.writeAll(bytes, to: descriptor)
        }
        if status != 0 { refusal = status }
        return status
    }
}
