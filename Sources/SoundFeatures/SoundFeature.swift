/// The numbers the station measures of each track's sound, in the order they are stored
/// and compared (``SoundTable`` in MusicLibrary holds them per track). The kind of twenty-odd
/// numbers bliss computes for an MPD song radio: how loud, how bright and how noisy the
/// sound is and how much those change, its timbre (MFCCs), how busy its rhythm is, and how
/// clearly it sits on pitches.
///
/// Frames are 1024 samples (46 ms) every 512 (23 ms) of mono audio at 22 050 Hz (see
/// ``SoundAnalyzer``). "Spread" is a standard deviation over the frames.
package enum SoundFeature: Int, CaseIterable, Sendable {
    /// Mean frame level, dB relative to full scale (mean square of the samples, floored at −100).
    case loudness
    /// Spread of the frame level (dB): dynamics.
    case loudnessSpread
    /// Mean spectral centroid (Hz): brightness.
    case centroid
    /// Spread of the centroid (Hz).
    case centroidSpread
    /// Mean spectral roll-off (Hz below which 95 % of the energy lies).
    case rolloff
    /// Spread of the roll-off (Hz).
    case rolloffSpread
    /// Mean spectral flatness (0 a pure tone … 1 white noise): geometric over arithmetic
    /// mean of the power spectrum.
    case flatness
    /// Spread of the flatness.
    case flatnessSpread
    /// Mean spectral flux (the magnitude that appeared since the frame before, over the
    /// frame's magnitude): how fast the sound changes.
    case flux
    /// Mean zero-crossing rate (crossings per sample).
    case zeroCrossings
    /// Onsets per second (aubio's default onset detector).
    case onsetRate
    /// Tempo (beats per minute, aubio's beat tracker: the median of its estimates at each
    /// beat; 0 when it found no beat).
    case tempo
    /// Mean MFCC 0 … 12 (aubio: 40 mel bands, 13 coefficients): timbre.
    case mfcc0, mfcc1, mfcc2, mfcc3, mfcc4, mfcc5, mfcc6, mfcc7, mfcc8, mfcc9, mfcc10, mfcc11, mfcc12
    /// Mean spread of MFCC 1 … 4: how much the timbre changes.
    case timbreSpread
    /// Mean share of the strongest pitch class in each frame's chroma (1/12 noise … 1 one
    /// note): how tonal.
    case chromaClarity
    /// Mean change of the chroma from frame to frame (half the sum of absolute
    /// differences, 0 … 1): how fast the harmony moves.
    case chromaChange

    /// The version of the analysis: stored with every result, so a change of features,
    /// their order or how they are measured analyses every track again.
    package static let version = 1

    /// How many numbers a track's sound is.
    package static var count: Int { allCases.count }

    /// Each feature's weight in the distance (``SoundTable`` scales them to sum to 1): every
    /// feature 1, except the thirteen MFCC means, which share about five, so timbre counts
    /// as much as loudness and spectral shape together and does not outvote them.
    package static let weights: [Float] = allCases.map { feature in
        feature.isMFCCMean ? 0.4 : 1
    }

    /// The MFCC coefficients whose means are features, in order.
    package static let mfccMeans: [SoundFeature] = [.mfcc0, .mfcc1, .mfcc2, .mfcc3, .mfcc4, .mfcc5, .mfcc6,
                                                    .mfcc7, .mfcc8, .mfcc9, .mfcc10, .mfcc11, .mfcc12]

    /// Whether this is one of the MFCC means.
    var isMFCCMean: Bool { (SoundFeature.mfcc0.rawValue...SoundFeature.mfcc12.rawValue).contains(rawValue) }

    /// The feature's name, for logs and benchmarks: its case name.
    package var name: String { String(describing: self) }
}
