import Foundation

/// One song of a live broadcast as its ``LiveAudioSource`` hands it to ``LiveEncoder``:
/// the file, where in it playing starts, and the gain it is played at. The encoder applies
/// the gain it is given and knows no rule for it.
public struct LiveInput: Sendable, Equatable {
    /// The file.
    public var file: URL
    /// How far into the file playing starts, in seconds: 0 but for a song taken up again
    /// part-way.
    public var startSeconds: Double
    /// The gain (dB) the song is played at: its levelling gain, 0 when it is not levelled.
    public var gain: Double

    /// The most a gain may be, either way (dB): past it a number is not a level but a fault,
    /// and the song is played as it is.
    public static let gainLimit = 60.0

    /// `file` from `startSeconds` in, at `gain` dB (`nil`: as it is).
    public init(file: URL, startSeconds: Double = 0, gain: Double? = nil) {
        self.file = file
        self.startSeconds = startSeconds
        self.gain = gain ?? 0
    }

    /// The factor the samples are multiplied by: 10^(gain/20), exactly 1 for no gain, or for
    /// one that is not a finite number within ``gainLimit``.
    var factor: Float {
        guard gain != 0, gain.isFinite, abs(gain) <= Self.gainLimit else { return 1 }
        return Float(pow(10, gain / 20))
    }

    /// Where to seek to before playing: ``startSeconds`` when it is a sensible length into
    /// a file (positive, finite, under a year), else `nil`, from the start.
    var seekSeconds: Double? {
        startSeconds > 0 && startSeconds < 365 * 86400 ? startSeconds : nil
    }
}
