import CEbur128
import Foundation
import MusicLibrary

/// Measures integrated loudness and true peak of interleaved float audio with libebur128
/// (through `CEbur128`), fed frame by frame at the audio's own rate and channel layout.
///
/// Channels are weighted as BS.1770 says for FFmpeg's layouts: mono and stereo as they are,
/// six channels as 5.1 in FFmpeg's order (L R C LFE Ls Rs: the LFE is left out, the
/// surrounds count +1.5 dB). Any other count is measured as a stereo downmix, which
/// ``channels(measuring:)`` tells the decoder to make: libebur128's default map names only
/// the 5.1 positions, and a quad or 7.1 file's channels would be misplaced in it.
///
/// Not `Sendable`: one thread at a time. Frees its libebur128 state in `deinit`.
package final class LoudnessMeter {
    /// Channels per frame it takes.
    package let channels: Int
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// libebur128 refused frames (out of memory): the measurement is void.
    private var failed = false

    /// Whether libebur128 can be loaded on this machine (it is, on first call).
    package static var isAvailable: Bool { mhz_ebur128_available() != 0 }

    /// Why libebur128 cannot be loaded, empty when it can.
    package static var loadError: String { String(cString: mhz_ebur128_load_error()) }

    /// The channel count to measure a stream of `native` channels at: the stream's own for
    /// mono, stereo and 5.1, else a stereo downmix.
    package static func channels(measuring native: Int) -> Int {
        [1, 2, 6].contains(native) ? native : 2
    }

    /// A meter for `channels` interleaved channels (1, 2 or 6) at `sampleRate` Hz.
    ///
    /// - Throws: `.unavailable` when libebur128 cannot be loaded or refuses the parameters
    ///   ("an initialized library state, or NULL on error", ebur128_init).
    package init(channels: Int, sampleRate: Int) throws(SoundAnalysisError) {
        guard Self.isAvailable else { throw .unavailable(reason: Self.loadError) }
        guard [1, 2, 6].contains(channels), let count = UInt32(exactly: channels),
              let rate = UInt(exactly: sampleRate), rate > 0
        else { throw .unavailable(reason: "libebur128 cannot measure \(channels) channels at \(sampleRate) Hz") }
        self.channels = channels
        // EBUR128_MODE_HISTOGRAM: the gating blocks are counted in 0.1 LU bins instead of
        // kept one by one, so an hour-long mix costs the same memory as a song.
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue | EBUR128_MODE_HISTOGRAM.rawValue)
        guard let state = mhz_ebur128_init(count, rate, mode) else {
            throw .unavailable(reason: "libebur128 cannot measure \(channels) channels at \(sampleRate) Hz")
        }
        self.state = state
        if channels == 6 {
            // libebur128's default map is already this one (3 -> EBUR128_UNUSED); set anyway
            // so the weighting does not rest on a default.
            let map: [channel] = [EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER, EBUR128_UNUSED,
                                  EBUR128_LEFT_SURROUND, EBUR128_RIGHT_SURROUND]
            for (index, position) in map.enumerated() {
                _ = mhz_ebur128_set_channel(state, UInt32(index), Int32(position.rawValue))
            }
        }
    }

    deinit {
        mhz_ebur128_destroy(&state)
    }

    /// Adds interleaved frames: `samples.count` must be a multiple of ``channels`` (a
    /// trailing partial frame is left out).
    package func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let state, let base = samples.baseAddress else { return }
        let frames = samples.count / channels
        guard frames > 0 else { return }
        // Returns EBUR128_SUCCESS or EBUR128_ERROR_NOMEM.
        if mhz_ebur128_add_frames_float(state, base, frames) != Int32(EBUR128_SUCCESS.rawValue) { failed = true }
    }

    /// The loudness of everything added so far, `nil` when libebur128 failed on the way.
    package func measurement() -> Loudness? {
        guard let state, !failed else { return nil }
        var integrated = 0.0
        guard mhz_ebur128_loudness_global(state, &integrated) == Int32(EBUR128_SUCCESS.rawValue) else { return nil }
        var peak = 0.0
        for index in 0..<channels {
            var channelPeak = 0.0
            // "maximum true peak in float format (1.0 is 0 dBTP)"; "20 * log10(out)".
            guard mhz_ebur128_true_peak(state, UInt32(index), &channelPeak) == Int32(EBUR128_SUCCESS.rawValue) else { return nil }
            if channelPeak.isFinite { peak = max(peak, channelPeak) }
        }
        // ebur128_loudness_global gives "-HUGE_VAL if result is negative infinity": no block
        // above the absolute gate, a silent file.
        return Loudness(integrated: integrated.isFinite ? integrated : nil,
                        truePeak: peak > 0 ? 20 * log10(peak) : nil)
    }
}
