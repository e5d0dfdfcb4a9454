import Foundation

/// Chroma from a magnitude spectrum: each bin of the spectrum between ``lowest`` and
/// ``highest`` Hz counts its energy for the pitch class (C, C♯ … B) of its centre
/// frequency, equal temperament with A at 440 Hz. A bin of 21.5 Hz (1024 points at
/// 22 050 Hz) is under a semitone wide only above about 370 Hz, so low notes smear into
/// their neighbours: enough to tell a chord from noise, not to name a key.
struct PitchClasses {
    /// The lowest frequency counted (Hz): below it a bin spans several semitones.
    static let lowest = 80.0
    /// The highest frequency counted (Hz): above it are overtones and cymbals, not notes.
    static let highest = 5000.0

    /// The pitch class of each bin, -1 for bins outside the range.
    private let classOfBin: [Int]

    /// The map for spectra of `bins` bins (window / 2 + 1) of a `window`-point transform at
    /// `sampleRate`.
    init(bins: Int, window: Int, sampleRate: Int) {
        classOfBin = (0..<bins).map { bin in
            let frequency = Double(bin) * Double(sampleRate) / Double(window)
            guard frequency >= Self.lowest, frequency <= Self.highest else { return -1 }
            // MIDI note 69 is A 440; note 60 is C, so the class of C is 0.
            let note = Int((69 + 12 * log2(frequency / 440)).rounded())
            return ((note % 12) + 12) % 12
        }
    }

    /// Each pitch class's share of the energy in `magnitudes` (summing to 1), or `nil` when
    /// the range holds no energy.
    func shares(of magnitudes: UnsafePointer<Float>) -> [Double]? {
        var energy = [Double](repeating: 0, count: 12)
        var total = 0.0
        for (bin, pitchClass) in classOfBin.enumerated() where pitchClass >= 0 {
            let power = Double(magnitudes[bin]) * Double(magnitudes[bin])
            energy[pitchClass] += power
            total += power
        }
        guard total > 1e-12 else { return nil }
        return energy.map { $0 / total }
    }
}
