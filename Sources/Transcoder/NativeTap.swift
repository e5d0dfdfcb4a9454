import CFFmpeg

/// Every decoded frame of a ``PCMDecoder`` as interleaved 32-bit float samples at the
/// stream's own rate, handed to a closure as they come: what a loudness meter reads beside
/// the analysis' mono excerpt, from the same decode.
///
/// libswresample only repacks here (planar or integer to packed float) when the channel
/// count asked is the stream's; asked for fewer, it mixes down with its default matrix.
final class NativeTap {
    /// Channels per frame handed out.
    let channels: Int
    private let converter: SampleConverter
    private let sink: (UnsafeBufferPointer<Float>) -> Void
    /// Converted samples on their way to `sink`, reused while large enough.
    private var scratch: [Float] = []

    /// A tap at `sampleRate` Hz with `channels` channels in FFmpeg's default layout for that
    /// count (for six, 5.1: L R C LFE and the two surrounds).
    init(sampleRate: Int32, channels: Int32, sink: @escaping (UnsafeBufferPointer<Float>) -> Void) throws(TranscodeError) {
        self.channels = Int(channels)
        self.sink = sink
        converter = try SampleConverter(output: OutputFormat(sampleRate: sampleRate, channels: channels,
                                                             sampleFormat: AV_SAMPLE_FMT_FLT))
    }

    /// Converts `frame` and hands what came out to the sink.
    func push(_ frame: UnsafePointer<AVFrame>) throws(TranscodeError) {
        try converter.push(frame)
        try deliver()
    }

    /// Hands out what the resampler still holds: at the end of the input.
    func finish() throws(TranscodeError) {
        try converter.flush()
        try deliver()
    }

    private func deliver() throws(TranscodeError) {
        let count = converter.available
        guard count > 0 else { return }
        let needed = Int(count) * channels
        if scratch.count < needed { scratch = [Float](repeating: 0, count: needed) }
        let converter = self.converter, sink = self.sink
        try scratch.withUnsafeMutableBufferPointer { (all) throws(TranscodeError) in
            guard let base = all.baseAddress else { return }
            let read = try converter.read(into: UnsafeMutableRawPointer(base), count: count)
            sink(UnsafeBufferPointer(start: base, count: Int(read) * channels))
        }
    }
}
