import CFFmpeg

/// Turns decoded frames, whatever their format, rate and channels, into the encoder's
/// (libswresample), and keeps the result in an `AVAudioFifo`: decoders hand out frames of
/// any length (Vorbis' vary packet to packet), while the encoder needs exactly
/// `frame_size` samples per frame, so the FIFO is where the two lengths meet.
///
/// The resampler is configured from the first frame rather than the stream's declared
/// parameters, and again whenever a frame differs (a chained Ogg file may change rate or
/// channels mid-stream).
final class SampleConverter {
    /// What comes out.
    let output: OutputFormat
    /// What every converted sample is multiplied by on its way into the FIFO.
    let gain: FrameGain
    private var outputLayout = AVChannelLayout()
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    /// Converted samples on their way into the FIFO, reused while large enough.
    private var scratch: UnsafeMutablePointer<AVFrame>?
    private var scratchCapacity: Int32 = 0
    /// The input parameters `resampler` was made for.
    private var inputLayout = AVChannelLayout()
    private var inputFormat: Int32 = -1
    private var inputRate: Int32 = 0

    /// Allocates the FIFO for `output` (it grows as needed: `av_audio_fifo_write` "will
    /// automatically reallocate the FIFO if it is not large enough"); every sample converted
    /// is multiplied by `gain` (a format ``FrameGain`` cannot scale refuses any but unity).
    init(output: OutputFormat, gain: FrameGain = .unity) throws(TranscodeError) {
        guard gain.isUnity || FrameGain.applies(to: output.sampleFormat) else {
            throw .failed(stage: .setup, reason: "no gain for sample format \(output.sampleFormat.rawValue)")
        }
        self.output = output
        self.gain = gain
        cffmpeg_layout_default(&outputLayout, output.channels)
        guard let fifo = mhz_av_audio_fifo_alloc(output.sampleFormat, output.channels, 4096),
              let scratch = mhz_av_frame_alloc()
        else { throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM))) }
        self.fifo = fifo
        self.scratch = scratch
    }

    deinit {
        mhz_swr_free(&resampler)
        if let fifo { mhz_av_audio_fifo_free(fifo) }
        mhz_av_frame_free(&scratch)
        mhz_av_channel_layout_uninit(&outputLayout)
        mhz_av_channel_layout_uninit(&inputLayout)
    }

    /// Samples waiting in the FIFO, per channel.
    var available: Int32 {
        guard let fifo else { return 0 }
        return mhz_av_audio_fifo_size(fifo)
    }

    /// Converts `frame` and appends the result to the FIFO.
    func push(_ frame: UnsafePointer<AVFrame>) throws(TranscodeError) {
        try configure(for: frame)
        let input = UnsafeMutableRawPointer(mutating: frame.pointee.extended_data)?
            .assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        try convert(input, count: frame.pointee.nb_samples)
    }

    /// Moves what the resampler still holds (its filter delay) into the FIFO: at the end of
    /// the input, and before it is replaced.
    func flush() throws(TranscodeError) {
        guard resampler != nil else { return }
        while try convert(nil, count: 0) > 0 {}
    }

    /// Drains the resampler into the FIFO and drops it, so the next frame starts a new
    /// one: between two inputs played one after the other, the first's filter delay is not
    /// mixed into the second's start even when both have the same parameters.
    func endInput() throws(TranscodeError) {
        try flush()
        mhz_swr_free(&resampler)
    }

    /// Appends `count` samples of silence to the FIFO: what makes a stream as long as it
    /// was announced when the input ends short of its declared duration. Silence is all
    /// zero bytes in both formats the encoder takes (planar float and planar 16-bit).
    func appendSilence(_ count: Int32) throws(TranscodeError) {
        guard count > 0, let fifo, let scratch else { return }
        try reserve(count, in: scratch)
        let bytesPerSample = output.sampleFormat == AV_SAMPLE_FMT_S16P ? 2 : 4
        for channel in 0..<Int(output.channels) {
            if let plane = scratch.pointee.extended_data[channel] {
                plane.update(repeating: 0, count: Int(count) * bytesPerSample)
            }
        }
        let planes = UnsafeMutableRawPointer(scratch.pointee.extended_data)!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        try FFmpegStatus.check(mhz_av_audio_fifo_write(fifo, planes, count), .resample)
    }

    /// Moves `count` samples from the FIFO into `frame`'s planes, which must hold that many.
    func read(into frame: UnsafeMutablePointer<AVFrame>, count: Int32) throws(TranscodeError) -> Int32 {
        guard let fifo else { return 0 }
        let planes = UnsafeMutableRawPointer(frame.pointee.extended_data)!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        return try FFmpegStatus.check(mhz_av_audio_fifo_read(fifo, planes, count), .resample)
    }

    /// Moves `count` samples from the FIFO into `plane`, for an output held in one plane
    /// (mono, or a packed format).
    func read(into plane: UnsafeMutableRawPointer, count: Int32) throws(TranscodeError) -> Int32 {
        guard let fifo else { return 0 }
        var planes: UnsafeMutableRawPointer? = plane
        let status = withUnsafeMutablePointer(to: &planes) { mhz_av_audio_fifo_read(fifo, $0, count) }
        return try FFmpegStatus.check(status, .resample)
    }

    /// Makes `resampler` fit `frame`, flushing the old one into the FIFO first.
    private func configure(for frame: UnsafePointer<AVFrame>) throws(TranscodeError) {
        var layout = AVChannelLayout()
        defer { mhz_av_channel_layout_uninit(&layout) }
        withUnsafePointer(to: frame.pointee.ch_layout) { _ = cffmpeg_layout_or_default($0, &layout) }
        if resampler != nil, frame.pointee.format == inputFormat, frame.pointee.sample_rate == inputRate,
           mhz_av_channel_layout_compare(&layout, &inputLayout) == 0 {
            return
        }
        try flush()
        mhz_swr_free(&resampler)
        try FFmpegStatus.check(
            mhz_swr_alloc_set_opts2(&resampler, &outputLayout, output.sampleFormat, output.sampleRate,
                                &layout, AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate,
                                0, nil),
            .resample)
        try FFmpegStatus.check(mhz_swr_init(resampler), .resample)
        mhz_av_channel_layout_uninit(&inputLayout)
        try FFmpegStatus.check(mhz_av_channel_layout_copy(&inputLayout, &layout), .resample)
        inputFormat = frame.pointee.format
        inputRate = frame.pointee.sample_rate
    }

    /// One `swr_convert` call into the scratch frame, appended to the FIFO; `input` nil
    /// drains the resampler. Returns the samples produced.
    @discardableResult
    private func convert(_ input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32) throws(TranscodeError) -> Int32 {
        guard let resampler, let fifo, let scratch else { return 0 }
        // "swr_get_out_samples: Find an upper bound on the number of samples that the next
        // swr_convert call will output, if called with in_samples of input samples."
        let bound = try FFmpegStatus.check(mhz_swr_get_out_samples(resampler, count), .resample)
        if bound == 0 { return 0 }
        try reserve(bound, in: scratch)
        let produced = try FFmpegStatus.check(
            mhz_swr_convert(resampler, scratch.pointee.extended_data, scratchCapacity, input, count), .resample)
        if produced > 0 {
            gain.apply(to: scratch.pointee.extended_data, samples: Int(produced), channels: Int(output.channels),
                       format: output.sampleFormat)
            let planes = UnsafeMutableRawPointer(scratch.pointee.extended_data)!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            try FFmpegStatus.check(mhz_av_audio_fifo_write(fifo, planes, produced), .resample)
        }
        return produced
    }

    /// Gives `scratch` room for `samples` per channel, reallocating only when it grows.
    private func reserve(_ samples: Int32, in scratch: UnsafeMutablePointer<AVFrame>) throws(TranscodeError) {
        if samples <= scratchCapacity { return }
        mhz_av_frame_unref(scratch)
        scratch.pointee.format = output.sampleFormat.rawValue
        scratch.pointee.sample_rate = output.sampleRate
        scratch.pointee.nb_samples = samples
        try FFmpegStatus.check(mhz_av_channel_layout_copy(&scratch.pointee.ch_layout, &outputLayout), .resample)
        try FFmpegStatus.check(mhz_av_frame_get_buffer(scratch, 0), .resample)
        scratchCapacity = samples
    }
}
