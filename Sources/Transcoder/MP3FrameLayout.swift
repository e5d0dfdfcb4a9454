/// The sizes of a constant-bit-rate MP3 stream as LAME lays it out, known before a single
/// frame is encoded: how many frames a number of samples takes, and how many bytes those
/// frames fill. This is what lets the station announce a transcode's exact length with
/// its first byte.
///
/// **Frames.** libavcodec's `libmp3lame` wrapper accounts for LAME's delay with
/// `initial_padding` (`lame_get_encoder_delay() + 528 + 1`: LAME's 576-sample encoder delay
/// and the 529 samples of an MP3 decoder's synthesis filter), and hands out one frame of
/// `frame_size` samples per packet while its queue of input frames lasts: `samples +
/// initial_padding` samples, rounded up to whole frames. LAME's flush pads the end with at
/// least 1152 samples (`POSTDELAY`), so it always has that many frames, and for some
/// lengths one more, which holds nothing of the input (taking it is what made the wrapper
/// log "Trying to remove 1152 samples, but the queue is empty"); no input frame in the
/// queue means no frame at all.
///
/// **Bytes.** A Layer III frame holds `144000 · kbps / rate` bytes (MPEG-1; `72000 · kbps /
/// rate` at MPEG-2 and 2.5 rates), rounded down, plus a padding byte where LAME sets the
/// padding bit. At 48 and 32 kHz the division is exact and no frame is padded; at 44.1 kHz
/// (and 22.05, 11.025) LAME pads "as described in 'MPEG-Layer3 / Bitstream Syntax and
/// Decoding' by Martin Sieler, Ralph Sperschneider" (LAME's `lame_encode_mp3_frame`):
/// `frac_SpF = (version + 1) · 72000 · kbps mod rate`, `slot_lag` starts at `frac_SpF`, and
/// each frame subtracts `frac_SpF` from it, padded when it goes below zero (then `rate` is
/// added back). So the first frame is never padded and, of the first `n`, `⌈(n − 1) ·
/// frac_SpF / rate⌉` are.
struct MP3FrameLayout: Sendable, Equatable {
    /// Samples per second per channel.
    let sampleRate: Int
    /// The constant bit rate, kbit/s.
    let kbps: Int
    /// Samples per channel in a frame: 1152 (MPEG-1) or 576 (MPEG-2 and 2.5).
    let samplesPerFrame: Int
    /// The encoder's `initial_padding`: samples it puts before the input.
    let initialPadding: Int

    /// Bytes per slot numerator: `(version + 1) · 72000 · kbps`, MPEG-1 being version 1.
    private var slotBytesTimesRate: Int { (samplesPerFrame == 1152 ? 144_000 : 72_000) * kbps }

    /// The bytes of every frame without its padding byte.
    var unpaddedFrameBytes: Int { slotBytesTimesRate / sampleRate }

    /// The fraction of a byte each frame falls short of the exact rate, in `1/rate` units.
    private var fraction: Int { slotBytesTimesRate % sampleRate }

    /// The frames that carry `samples` of input (per channel): none for none, else enough
    /// for the samples and the encoder's padding before them.
    func frames(carrying samples: Int) -> Int {
        guard samples > 0 else { return 0 }
        return (samples + initialPadding + samplesPerFrame - 1) / samplesPerFrame
    }

    /// Whether LAME sets the padding bit of the frame at `index` (from 0).
    func isPadded(frame index: Int) -> Bool {
        paddedFrames(inFirst: index + 1) > paddedFrames(inFirst: index)
    }

    /// How many of the first `count` frames carry a padding byte.
    func paddedFrames(inFirst count: Int) -> Int {
        guard count > 1, fraction > 0 else { return 0 }
        return ((count - 1) * fraction + sampleRate - 1) / sampleRate
    }

    /// The bytes of the first `count` frames.
    func bytes(ofFirst count: Int) -> Int {
        count * unpaddedFrameBytes + paddedFrames(inFirst: count)
    }
}
