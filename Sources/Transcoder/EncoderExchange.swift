import CFFmpeg

/// One frame into an FFmpeg encoder and every packet that comes out, the exchange the AAC
/// and period encoders share. (``MP3Encoder`` keeps its own: it stops at the packets it owes
/// and refuses an encoder that takes no input with every packet taken.)
enum EncoderExchange {
    /// Sends `frame` (nil: start draining), taking packets out whenever the encoder asks,
    /// then takes every packet it has ready, each handed to `deliver` valid during the call.
    ///
    /// avcodec_send_frame: "AVERROR(EAGAIN): input is not accepted in the current state -
    /// user must read output with avcodec_receive_packet()"; a NULL frame starts draining.
    static func send(_ frame: UnsafePointer<AVFrame>?, context: UnsafeMutablePointer<AVCodecContext>,
                     packet: UnsafeMutablePointer<AVPacket>,
                     deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        while true {
            let status = mhz_avcodec_send_frame(context, frame)
            if status != FFmpegStatus.again {
                try FFmpegStatus.check(status, .encode)
                break
            }
            try receive(context: context, packet: packet, deliver: deliver)
        }
        try receive(context: context, packet: packet, deliver: deliver)
    }

    /// avcodec_receive_packet until "AVERROR(EAGAIN): output is not available" or
    /// "AVERROR_EOF: the encoder has been fully flushed".
    private static func receive(context: UnsafeMutablePointer<AVCodecContext>, packet: UnsafeMutablePointer<AVPacket>,
                                deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        while true {
            let status = mhz_avcodec_receive_packet(context, packet)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { return }
            try FFmpegStatus.check(status, .encode)
            defer { mhz_av_packet_unref(packet) }
            try deliver(packet)
        }
    }
}
