import CFFmpeg
import Foundation

/// One period of a file (a byte range: the segments between two discontinuities) opened by
/// libavformat as if it were a file of its own, through a custom read-and-seek
/// `AVIOContext` over the range, with its audio stream found and, on demand, decoded.
///
/// Owns its `AVFormatContext`, `AVIOContext`, packet and decoder; frees them in `deinit`.
/// The file descriptor is the caller's.
final class PeriodInput {
    /// The demuxers a period may be read with: what HLS segments are (MPEG-TS, packed AAC
    /// or MP3, fragmented MP4). The bytes came from the network: no playlist, image or
    /// other demuxer is tried on them.
    static let demuxers = "mpegts,aac,mp3,mov"
    private static let ioBufferSize: Int32 = 64 * 1024

    private let reader: RangeReader
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The audio stream's index.
    private(set) var streamIndex: Int32 = -1

    /// Opens the `length` bytes of `descriptor` from `start` and finds their audio stream.
    /// - Throws: `.cannotOpen` (named `label`) when libavformat cannot read them,
    ///   `.noAudioStream` without audio, `.unjoinable(.video)` with video.
    init(descriptor: Int32, start: Int64, length: Int64, label: String) throws(TranscodeError) {
        reader = RangeReader(descriptor: descriptor, start: start, length: length)
        guard let context = mhz_avformat_alloc_context() else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        guard let buffer = mhz_av_malloc(Int(Self.ioBufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            mhz_avformat_free_context(context)
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        io = mhz_avio_alloc_context(buffer, Self.ioBufferSize, 0, Unmanaged.passUnretained(reader).toOpaque(),
                                    { opaque, bytes, size in
                                        guard let opaque, let bytes else { return cffmpeg_error_eof() }
                                        return Unmanaged<RangeReader>.fromOpaque(opaque).takeUnretainedValue()
                                            .read(into: bytes, size: size)
                                    }, nil,
                                    { opaque, offset, whence in
                                        guard let opaque else { return -1 }
                                        return Unmanaged<RangeReader>.fromOpaque(opaque).takeUnretainedValue()
                                            .seek(to: offset, whence: whence)
                                    })
        guard let io else {
            mhz_av_free(buffer)
            mhz_avformat_free_context(context)
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var options: OpaquePointer?
        mhz_av_dict_set(&options, "format_whitelist", Self.demuxers, 0)
        mhz_av_dict_set(&options, "protocol_whitelist", "file", 0)
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // "a user-supplied AVFormatContext will be freed on failure" (avformat_open_input).
        let status = mhz_avformat_open_input(&opened, "", nil, &options)
        mhz_av_dict_free(&options)
        guard status >= 0, let opened else { throw .cannotOpen(path: label, reason: FFmpegStatus.describe(status)) }
        format = opened
        let probed = mhz_avformat_find_stream_info(opened, nil)
        if probed < 0 { throw .cannotOpen(path: label, reason: FFmpegStatus.describe(probed)) }
        for index in 0..<Int(opened.pointee.nb_streams) {
            guard let stream = opened.pointee.streams[index] else { continue }
            let picture = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
            if stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO, !picture { throw .unjoinable(.video) }
        }
        let index = mhz_av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0 else { throw .noAudioStream(path: label) }
        streamIndex = index
        guard let packet = mhz_av_packet_alloc() else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.packet = packet
    }

    deinit {
        mhz_av_frame_free(&frame)
        mhz_avcodec_free_context(&decoder)
        mhz_av_packet_free(&packet)
        mhz_avformat_close_input(&format)
        // A custom AVIOContext is the caller's to free, with the buffer it uses now
        // (avio_alloc_context: "It may be freed and replaced with a new buffer by libavformat").
        if let io { mhz_av_freep(&io.pointee.buffer) }
        mhz_avio_context_free(&io)
    }

    /// The audio stream.
    var stream: UnsafeMutablePointer<AVStream> { format!.pointee.streams[Int(streamIndex)]! }

    /// Its codec parameters.
    var parameters: UnsafeMutablePointer<AVCodecParameters> { stream.pointee.codecpar }

    /// The time base of its packets' timestamps.
    var timeBase: AVRational { stream.pointee.time_base }

    /// The demuxer's name (`mpegts`, `aac`, `mp3`, `mov,mp4,m4a,3gp,3g2,mj2`).
    var formatName: String { format.flatMap { $0.pointee.iformat?.pointee.name }.map { String(cString: $0) } ?? "" }

    /// The MPEG-TS program carrying the audio stream: its number and its PMT's PID.
    var program: (number: Int32, pmtPID: Int32)? {
        guard let format else { return nil }
        for index in 0..<Int(format.pointee.nb_programs) {
            guard let program = format.pointee.programs[index] else { continue }
            let members = UnsafeBufferPointer(start: program.pointee.stream_index, count: Int(program.pointee.nb_stream_indexes))
            if members.contains(UInt32(streamIndex)) { return (program.pointee.id, program.pointee.pmt_pid) }
        }
        return nil
    }

    /// The next packet of the audio stream, valid until the next call; nil at the end.
    func nextPacket() throws(TranscodeError) -> UnsafeMutablePointer<AVPacket>? {
        guard let format, let packet else { return nil }
        while true {
            mhz_av_packet_unref(packet)
            let status = mhz_av_read_frame(format, packet)
            if status == FFmpegStatus.endOfFile { return nil }
            if status < 0 { throw .failed(stage: .read, reason: FFmpegStatus.describe(status)) }
            if packet.pointee.stream_index == streamIndex { return packet }
        }
    }

    /// Decodes the whole audio stream, handing every frame to `body` (valid during the call
    /// only). A damaged packet (`AVERROR_INVALIDDATA`) is skipped, as the ffmpeg tool does.
    func decode(_ body: (UnsafePointer<AVFrame>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        let parameters = self.parameters
        guard let codec = mhz_avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .decoderUnavailable(codec: String(cString: mhz_avcodec_get_name(parameters.pointee.codec_id)))
        }
        guard let context = mhz_avcodec_alloc_context3(codec), let frame = mhz_av_frame_alloc() else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        decoder = context
        self.frame = frame
        try FFmpegStatus.check(mhz_avcodec_parameters_to_context(context, parameters), .decode)
        context.pointee.pkt_timebase = timeBase
        try FFmpegStatus.check(mhz_avcodec_open2(context, codec, nil), .decode)
        while let packet = try nextPacket() {
            try send(packet, to: context, body)
        }
        // "Sending NULL … enters draining mode" (avcodec_send_packet).
        try send(nil, to: context, body)
    }

    /// avcodec_send_packet: "AVERROR(EAGAIN): input is not accepted in the current state -
    /// user must read output with avcodec_receive_frame() (once all output is read, the
    /// packet should be resent, and the call will not fail with EAGAIN)".
    private func send(_ packet: UnsafeMutablePointer<AVPacket>?, to context: UnsafeMutablePointer<AVCodecContext>,
                      _ body: (UnsafePointer<AVFrame>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        while true {
            let status = mhz_avcodec_send_packet(context, packet)
            if status == FFmpegStatus.again {
                try receive(from: context, body)
                continue
            }
            if status < 0, status != FFmpegStatus.invalidData, status != FFmpegStatus.endOfFile {
                throw .failed(stage: .decode, reason: FFmpegStatus.describe(status))
            }
            break
        }
        try receive(from: context, body)
    }

    /// avcodec_receive_frame: "AVERROR(EAGAIN): output is not available in this state";
    /// "AVERROR_EOF: the codec has been fully flushed".
    private func receive(from context: UnsafeMutablePointer<AVCodecContext>,
                         _ body: (UnsafePointer<AVFrame>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let frame else { return }
        while true {
            let status = mhz_avcodec_receive_frame(context, frame)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { return }
            if status == FFmpegStatus.invalidData { continue }
            try FFmpegStatus.check(status, .decode)
            defer { mhz_av_frame_unref(frame) }
            try body(frame)
        }
    }
}

/// A byte range of a file read through `pread(2)`, as an `AVIOContext`'s read and seek
/// callbacks see it: offsets count from the range's start, and its end is the end of file.
private final class RangeReader {
    let descriptor: Int32
    let start: Int64
    let length: Int64
    var position: Int64 = 0

    init(descriptor: Int32, start: Int64, length: Int64) {
        self.descriptor = descriptor
        self.start = start
        self.length = length
    }

    /// read_packet: bytes read, or `AVERROR_EOF` at the end of the range.
    func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
        let left = length - position
        guard left > 0, size > 0 else { return cffmpeg_error_eof() }
        while true {
            let count = pread(descriptor, buffer, Int(min(Int64(size), left)), off_t(start + position))
            if count < 0, errno == EINTR { continue }
            if count < 0 { return cffmpeg_error_from_errno(errno) }
            if count == 0 { return cffmpeg_error_eof() }
            position += Int64(count)
            return Int32(count)
        }
    }

    /// seek: "whence: SEEK_SET, SEEK_CUR, SEEK_END or AVSEEK_SIZE (return the size, do not
    /// seek)"; `AVSEEK_FORCE` may be or-ed in.
    func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return length }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = length + offset
        default: return Int64(cffmpeg_error_from_errno(EINVAL))
        }
        guard target >= 0, target <= length else { return Int64(cffmpeg_error_from_errno(EINVAL)) }
        position = target
        return target
    }
}
