import Foundation

/// One song of a live broadcast as its ``LiveAudioSource`` hands it to ``LiveEncoder``:
/// the file, where in it playing starts, and the gain it is played at. The encoder applies
/// the gain it is given (``FrameGain``, as a transcode does) and knows no rule for it.
public struct LiveInput: Sendable, Equatable {
    /// The file.
    public var file: URL
    /// How far into the file playing starts, in seconds: 0 but for a song taken up again
    /// part-way.
    public var startSeconds: Double
    /// The gain (dB) the song is played at: its levelling gain, 0 when it is not levelled.
    public var gain: Double

    /// `file` from `startSeconds` in, at `gain` dB (`nil`: as it is).
    public init(file: URL, startSeconds: Double = 0, gain: Double? = nil) {
        self.file = file
        self.startSeconds = startSeconds
        self.gain = gain ?? 0
    }

    /// Where to seek to before playing: ``startSeconds`` when it is a sensible length into
    /// a file (positive, finite, under a year), else `nil`, from the start.
    var seekSeconds: Double? {
        startSeconds > 0 && startSeconds < 365 * 86400 ? startSeconds : nil
    }
}
