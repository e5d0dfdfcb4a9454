import CFFmpeg

/// FFmpeg's status codes as this layer reads them: negative values are errors,
/// `AVERROR(EAGAIN)` and `AVERROR_EOF` are states of the send/receive loops rather than
/// failures. The macros behind them are reached through the shim's functions.
enum FFmpegStatus {
    /// `AVERROR(EAGAIN)`: "output is not available in this state - user must try to send
    /// new input" (receive) or "input is not accepted in the current state - user must read
    /// output" (send).
    static let again = cffmpeg_error_again()
    /// `AVERROR_EOF`: the codec or demuxer has been fully flushed; no more output.
    static let endOfFile = cffmpeg_error_eof()
    /// `AVERROR_INVALIDDATA`: one damaged packet, which a decoder skips.
    static let invalidData = cffmpeg_error_invalid_data()

    /// FFmpeg's words for `code` (`av_strerror`), the `reason` of a `TranscodeError`.
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { cffmpeg_strerror(code, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws `.failed(stage, words)` when `code` is an error; returns it otherwise.
    @discardableResult
    static func check(_ code: Int32, _ stage: TranscodeError.Stage) throws(TranscodeError) -> Int32 {
        if code < 0 { throw .failed(stage: stage, reason: describe(code)) }
        return code
    }
}
