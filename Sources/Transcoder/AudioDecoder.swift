import CFFmpeg

/// The input half of a transcoding: one file demuxed by libavformat, its best audio stream
/// decoded by libavcodec, one packet at a time so the caller can encode between packets
/// (which is what makes the output a stream rather than a finished file).
///
/// Owns its `AVFormatContext`, `AVCodecContext`, packet and frame; frees them in `deinit`,
/// wherever reading stopped.
final class AudioDecoder {
    /// The input's path, for errors.
    let path: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var streamIndex: Int32 = -1
    /// The end of the file was read and the decoder was sent its flush packet.
    private var draining = false
    /// The decoder answered `AVERROR_EOF`: every frame has been handed out.
    private(set) var finished = false

    /// Opens `path` through FFmpeg's `file` protocol only (`file:` prefix and a protocol
    /// whitelist): a library file named `http:…`, or a playlist renamed `.mp3`, must not make
    /// the station fetch anything from the network.
    init(path: String) throws(TranscodeError) {
        self.path = path
        var options: OpaquePointer?
        mhz_av_dict_set(&options, "protocol_whitelist", "file", 0)
        var opened: UnsafeMutablePointer<AVFormatContext>?
        // "On failure, *ps is freed and set to NULL" (avformat_open_input).
        let status = mhz_avformat_open_input(&opened, "file:" + path, nil, &options)
        mhz_av_dict_free(&options)
        guard status >= 0, let opened else {
            throw .cannotOpen(path: path, reason: FFmpegStatus.describe(status))
        }
        format = opened
        let probed = mhz_avformat_find_stream_info(opened, nil)
        if probed < 0 { throw .cannotOpen(path: path, reason: FFmpegStatus.describe(probed)) }

        let index = mhz_av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = opened.pointee.streams[Int(index)] else {
            throw .noAudioStream(path: path)
        }
        streamIndex = index
        let parameters = stream.pointee.codecpar!
        guard let decoder = mhz_avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .decoderUnavailable(codec: String(cString: mhz_avcodec_get_name(parameters.pointee.codec_id)))
        }
        guard let context = mhz_avcodec_alloc_context3(decoder) else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        codec = context
        try FFmpegStatus.check(mhz_avcodec_parameters_to_context(context, parameters), .decode)
        context.pointee.pkt_timebase = stream.pointee.time_base
        try FFmpegStatus.check(mhz_avcodec_open2(context, decoder, nil), .decode)
        guard let packet = mhz_av_packet_alloc(), let frame = mhz_av_frame_alloc() else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.packet = packet
        self.frame = frame
    }

    deinit {
        mhz_av_frame_free(&frame)
        mhz_av_packet_free(&packet)
        mhz_avcodec_free_context(&codec)
        mhz_avformat_close_input(&format)
    }

    /// The sample rate the stream declares (0 when the container does not say).
    var sampleRate: Int32 { codec?.pointee.sample_rate ?? 0 }

    /// The number of channels the stream declares.
    var channels: Int32 { codec?.pointee.ch_layout.nb_channels ?? 0 }

    /// The audio's length in seconds as the file declares it: the audio stream's duration
    /// (FLAC's STREAMINFO, Ogg's last granule, an MP4 track's, a Xing header's frame count),
    /// else the container's (Matroska's segment), else `nil`.
    var declaredDuration: Double? {
        guard let format else { return nil }
        let unknown = cffmpeg_nopts_value()
        if let stream = format.pointee.streams[Int(streamIndex)], stream.pointee.duration != unknown,
           stream.pointee.duration > 0, stream.pointee.time_base.den > 0 {
            let base = stream.pointee.time_base
            return Double(stream.pointee.duration) * Double(base.num) / Double(base.den)
        }
        if format.pointee.duration != unknown, format.pointee.duration > 0 {
            return Double(format.pointee.duration) / Double(AV_TIME_BASE)
        }
        return nil
    }

    /// The audio's length in seconds found by decoding all of it, for a file that declares
    /// none. Reads the file to its end: use a decoder of its own.
    func decodedDuration() throws(TranscodeError) -> Double {
        var seconds = 0.0
        while try step({ frame in
            if frame.pointee.sample_rate > 0 { seconds += Double(frame.pointee.nb_samples) / Double(frame.pointee.sample_rate) }
        }) {}
        return seconds
    }

    /// The audio stream's bit rate in bit/s as the file declares it, 0 when it does not.
    var bitRate: Int64 {
        guard let format, let stream = format.pointee.streams[Int(streamIndex)] else { return 0 }
        return stream.pointee.codecpar.pointee.bit_rate
    }

    /// The value of each of `keys` the input carries, container level first (FLAC, MP3,
    /// M4A keep tags there), then the audio stream's (Ogg and Opus keep their comments on
    /// the stream). Keys are matched without regard to case (`av_dict_get` without
    /// `AV_DICT_MATCH_CASE`), so Vorbis comments' `TITLE` is `title`.
    func tags(_ keys: [String]) -> [(key: String, value: String)] {
        guard let format else { return [] }
        let stream = format.pointee.streams[Int(streamIndex)]
        var found: [(key: String, value: String)] = []
        for key in keys {
            for dictionary in [format.pointee.metadata, stream?.pointee.metadata] {
                if let entry = mhz_av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value {
                    found.append((key, String(cString: value)))
                    break
                }
            }
        }
        return found
    }

    /// Moves reading to the packet at or before `seconds` from the start (before the first
    /// `step`: frames already decoded are not taken back). Returns whether the demuxer could
    /// seek; when it could not, reading goes on from where it was.
    ///
    /// av_seek_frame with stream -1 takes "AV_TIME_BASE units"; AVSEEK_FLAG_BACKWARD
    /// "seek[s] backward", to the last keyframe at or before the time, and
    /// avcodec_flush_buffers is what "should be called e.g. when seeking".
    func seek(toSeconds seconds: Double) -> Bool {
        guard let format, let codec, seconds > 0 else { return false }
        let status = mhz_av_seek_frame(format, -1, Int64(seconds * Double(AV_TIME_BASE)), AVSEEK_FLAG_BACKWARD)
        guard status >= 0 else { return false }
        mhz_avcodec_flush_buffers(codec)
        return true
    }

    /// Reads the next packet of the audio stream and hands every frame it decodes to
    /// `body` (the frame is only valid during the call). At the end of the file it drains
    /// the decoder instead. Returns `false` once the decoder has nothing more.
    ///
    /// A damaged packet (`AVERROR_INVALIDDATA`) is skipped, as the ffmpeg tool does: one bad
    /// frame of a song is a click, not a reason to stop the stream.
    func step(_ body: (UnsafePointer<AVFrame>) throws(TranscodeError) -> Void) throws(TranscodeError) -> Bool {
        guard !finished, let format, let codec, let packet else { return false }
        if draining {
            try receiveFrames(body)
            return !finished
        }
        let read = mhz_av_read_frame(format, packet)
        if read == FFmpegStatus.endOfFile {
            // "Sending NULL … enters draining mode" (avcodec_send_packet).
            try send(nil, to: codec, body)
            draining = true
        } else if read < 0 {
            throw .failed(stage: .read, reason: FFmpegStatus.describe(read))
        } else {
            defer { mhz_av_packet_unref(packet) }
            if packet.pointee.stream_index == streamIndex { try send(packet, to: codec, body) }
        }
        try receiveFrames(body)
        return !finished
    }

    /// avcodec_send_packet: "AVERROR(EAGAIN): input is not accepted in the current state -
    /// user must read output with avcodec_receive_frame() (once all output is read, the
    /// packet should be resent, and the call will not fail with EAGAIN)."
    private func send(_ packet: UnsafeMutablePointer<AVPacket>?, to codec: UnsafeMutablePointer<AVCodecContext>,
                      _ body: (UnsafePointer<AVFrame>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        while true {
            let status = mhz_avcodec_send_packet(codec, packet)
            if status == FFmpegStatus.again {
                try receiveFrames(body)
                continue
            }
            if status >= 0 || status == FFmpegStatus.invalidData || status == FFmpegStatus.endOfFile { return }
            throw .failed(stage: .decode, reason: FFmpegStatus.describe(status))
        }
    }

    /// avcodec_receive_frame: "AVERROR(EAGAIN): output is not available in this state - user
    /// must try to send new input; AVERROR_EOF: the codec has been fully flushed, and there
    /// will be no more output frames."
    private func receiveFrames(_ body: (UnsafePointer<AVFrame>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let codec, let frame else { return }
        while true {
            let status = mhz_avcodec_receive_frame(codec, frame)
            if status == FFmpegStatus.again { return }
            if status == FFmpegStatus.endOfFile {
                finished = true
                return
            }
            if status == FFmpegStatus.invalidData { continue }
            if status < 0 { throw .failed(stage: .decode, reason: FFmpegStatus.describe(status)) }
            defer { mhz_av_frame_unref(frame) }
            try body(frame)
        }
    }
}
