/// One file's (or album's) loudness by EBU R 128 / ITU-R BS.1770, as the station's sound
/// analysis measured it (SoundFeatures' `LoudnessMeter`, over libebur128).
public struct Loudness: Sendable, Equatable {
    /// The measurement's version, kept with each file's row (`sound.loudness_version`):
    /// bumped when the meter changes what it measures, so files are measured again.
    package static let version = 1

    /// Integrated loudness (LUFS); `nil` when the audio is silent, every 400 ms block of it
    /// below the absolute gate of −70 LUFS.
    public var integrated: Double?
    /// The highest true peak over every channel (dBTP: 0 is full scale); `nil` when every
    /// sample was zero.
    public var truePeak: Double?

    /// A measurement of the two values.
    public init(integrated: Double?, truePeak: Double?) {
        self.integrated = integrated
        self.truePeak = truePeak
    }
}
