import CFFmpeg
import Foundation

/// The audio a live broadcast encodes, frame by frame: the source's songs one after the
/// other, each at its gain (which its ``LivePlay``'s converter applies), the end of one
/// overlapping the start of the next.
///
/// **The crossfade.** While a song is decoded, its FIFO is kept a frame and a crossfade
/// ahead, so when its file ends, all it has left (`R` samples) is known; the next song is
/// opened then, and the two overlap over `F' = min(F, R, N/2)` samples (`F` the crossfade,
/// `N` the next song's declared length): the next song's first sample is `F'` before the
/// ending one's last. During the overlap each sample is `a·cos(πt/2) + b·sin(πt/2)`, `t`
/// going from 0 to 1 (an equal-power curve: two uncorrelated songs keep their sum's power),
/// clamped to ±1 (two songs near full scale sum past it). With `F` zero, or a song that
/// could not be opened in time, songs follow one another sample for sample as without a
/// crossfade. A song that starts when nothing plays (a run's first, one taken up again)
/// has no fade in.
///
/// **A skip** (``endInput()``) ends the song playing within `min(F, 1 s)`: the next song
/// fades in over that instead of waiting for the end; without a crossfade what waits in
/// the song's FIFO plays out, then the next one starts.
///
/// Blocking and not `Sendable`: the broadcast's thread owns it.
final class LiveMixer {
    private let source: LiveAudioSource
    private let format: OutputFormat
    /// `F`, in samples.
    private let crossfade: Int64
    /// The fade of a skip, in samples.
    private let skipFade: Int64
    /// The song heard (or fading out).
    private var playing: LivePlay?
    /// The song opened to follow it (fading in once ``fade`` is set).
    private var next: LivePlay?
    /// The overlap under way: its length and how much of it is encoded.
    private var fade: (length: Int64, done: Int64)?
    /// Where one song's samples wait on their way into the mix; one per song of a fade.
    private var scratch: [UnsafeMutablePointer<AVFrame>?]

    /// A mixer for frames of up to `frameSize` samples of `format` (planar float), songs
    /// overlapping by `crossfade` samples.
    init(source: LiveAudioSource, format: OutputFormat, frameSize: Int32, crossfade: Int64) throws(TranscodeError) {
        self.source = source
        self.format = format
        self.crossfade = max(0, crossfade)
        skipFade = min(max(0, crossfade), Int64(format.sampleRate))
        scratch = []
        for _ in 0..<2 {
            guard let frame = mhz_av_frame_alloc() else {
                throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
            }
            scratch.append(frame)
            frame.pointee.format = format.sampleFormat.rawValue
            frame.pointee.sample_rate = format.sampleRate
            frame.pointee.nb_samples = frameSize
            cffmpeg_layout_default(&frame.pointee.ch_layout, format.channels)
            try FFmpegStatus.check(mhz_av_frame_get_buffer(frame, 0), .setup)
        }
    }

    deinit {
        for index in scratch.indices { mhz_av_frame_free(&scratch[index]) }
    }

    /// Ends the song heard now (see the type's comment); one still fading in is ended once
    /// its fade is over.
    func endInput() {
        if fade != nil {
            next?.endRequested = true
            return
        }
        try? playing?.stop(keeping: crossfade > 0 ? skipFade : nil)
    }

    /// Fills `count` samples of `frame` (planar float of ``format``), whose first sample
    /// is the broadcast's `sample`, asking the source for songs as they are needed.
    func fill(_ frame: UnsafeMutablePointer<AVFrame>, count: Int32, at sample: Int64) throws(TranscodeError) {
        var position: Int32 = 0
        var asked = false
        while position < count {
            let want = count - position
            if let out = playing, let incoming = next, let fade {
                let length = Int32(clamping: min(Int64(want), fade.length - fade.done))
                try incoming.pump(to: Int64(count) + crossfade)
                try mixFade(out, incoming, into: frame, at: position, count: length, fade: fade)
                position += length
                let done = fade.done + Int64(length)
                self.fade = (fade.length, done)
                if done >= fade.length { try handOver() }
                continue
            }
            guard let current = playing else {
                // Nothing plays: a song starts here, whole, or silence until there is one.
                if next == nil, !asked {
                    asked = true
                    next = open()
                }
                if let opened = next {
                    next = nil
                    playing = opened
                    source.inputStarted(opened.input, at: sample + Int64(position), fadeIn: 0)
                    continue
                }
                silence(frame, from: position, count: want)
                return
            }
            try current.pump(to: Int64(count) + crossfade)
            if current.ended, next == nil, !asked {
                asked = true
                next = open()
            }
            guard let remaining = current.remaining else {
                try mixSolo(current, into: frame, at: position, count: want)
                position = count
                continue
            }
            let overlap = next.map { self.overlap(current, remaining: remaining, next: $0) } ?? 0
            if remaining > overlap {
                let length = Int32(clamping: min(Int64(want), remaining - overlap))
                try mixSolo(current, into: frame, at: position, count: length)
                position += length
                continue
            }
            // The song playing ends here, or its fade out starts.
            guard let incoming = next else {
                playing = nil
                // As without a crossfade: the frame's rest is silence when no song could
                // be had for it; the next frame asks again.
                if asked {
                    silence(frame, from: position, count: want)
                    return
                }
                continue
            }
            source.inputStarted(incoming.input, at: sample + Int64(position), fadeIn: overlap)
            if overlap > 0 {
                fade = (overlap, 0)
            } else {
                try handOver()
            }
        }
    }

    /// The song fading in becomes the song playing; a vote that came during its fade ends
    /// it now.
    private func handOver() throws(TranscodeError) {
        playing = next
        next = nil
        fade = nil
        if let playing, playing.endRequested { try playing.stop(keeping: crossfade > 0 ? skipFade : nil) }
    }

    /// `F'` between `current`, with `remaining` samples left, and `next`: a song ended by a
    /// vote fades over the skip's fade.
    private func overlap(_ current: LivePlay, remaining: Int64, next: LivePlay) -> Int64 {
        guard crossfade > 0 else { return 0 }
        return min(current.isCut ? skipFade : crossfade, remaining, next.declaredSamples.map { $0 / 2 } ?? .max)
    }

    /// The source's next song, opened; `nil` when it has none or it cannot be opened.
    private func open() -> LivePlay? {
        guard let input = source.nextInput() else { return nil }
        do throws(TranscodeError) {
            return try LivePlay(input, format: format)
        } catch {
            source.inputFailed(input, error: error)
            return nil
        }
    }

    /// `count` samples of `song` alone into `frame` from `position`, as its converter made
    /// them (at its gain).
    private func mixSolo(_ song: LivePlay, into frame: UnsafeMutablePointer<AVFrame>, at position: Int32,
                         count: Int32) throws(TranscodeError) {
        guard count > 0, let buffer = scratch[0] else { return }
        try song.read(into: buffer, count: count)
        for channel in 0..<Int(format.channels) {
            Self.plane(frame, channel).advanced(by: Int(position)).update(from: Self.plane(buffer, channel), count: Int(count))
        }
    }

    /// `count` samples of the overlap into `frame` from `position`: `out` fading out and
    /// `incoming` fading in, `fade.done` samples of the fade encoded before.
    private func mixFade(_ out: LivePlay, _ incoming: LivePlay, into frame: UnsafeMutablePointer<AVFrame>,
                         at position: Int32, count: Int32, fade: (length: Int64, done: Int64)) throws(TranscodeError) {
        guard count > 0, let a = scratch[0], let b = scratch[1] else { return }
        try out.read(into: a, count: count)
        try incoming.read(into: b, count: count)
        let length = Double(fade.length)
        let channels = (0..<Int(format.channels)).map { (Self.plane(a, $0), Self.plane(b, $0), Self.plane(frame, $0)) }
        for index in 0..<Int(count) {
            // t at the middle of each sample: the curve is symmetric about the fade's middle.
            let curve = LiveCrossfade.gains(at: (Double(fade.done) + Double(index) + 0.5) / length)
            for (fading, rising, target) in channels {
                target[Int(position) + index] = clamp(fading[index] * curve.out + rising[index] * curve.in)
            }
        }
    }

    /// Zeros `count` samples of `frame` from `position`.
    private func silence(_ frame: UnsafeMutablePointer<AVFrame>, from position: Int32, count: Int32) {
        for channel in 0..<Int(format.channels) {
            Self.plane(frame, channel).advanced(by: Int(position)).update(repeating: 0, count: Int(count))
        }
    }

    /// `value` within ±1: what the AAC encoder is given is full scale at most.
    private func clamp(_ value: Float) -> Float {
        min(1, max(-1, value))
    }

    /// A channel's plane of a planar float frame. Only the mixer's own frames come here,
    /// made by `av_frame_get_buffer` for its planar format, which "will allocate ...
    /// extended_data" for every channel: a plane below `channels` is never NULL.
    private static func plane(_ frame: UnsafeMutablePointer<AVFrame>, _ channel: Int) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer(frame.pointee.extended_data[channel]!).assumingMemoryBound(to: Float.self)
    }
}
