import Foundation

/// The running sums over a track's frames that become its ``SoundFeature`` vector: fed one
/// hop at a time by ``SoundAnalyzer`` with what ``AubioFrames`` read, summed up by
/// ``features(seconds:)``.
///
/// Spectral statistics count only frames at or above ``soundGate`` dBFS: silence has no
/// brightness or timbre, and a quiet intro would otherwise drag a song's means towards
/// nothing. Level, zero crossings, onsets and beats count every frame.
struct FrameStatistics {
    /// The level (dBFS) a frame must reach for its spectrum to count.
    static let soundGate = -60.0
    /// The level given to digital silence (dBFS), where the logarithm has none.
    static let floor = -100.0

    private var level = RunningMoments()
    private var centroid = RunningMoments()
    private var rolloff = RunningMoments()
    private var flatness = RunningMoments()
    private var flux = RunningMoments()
    private var zeroCrossings = RunningMoments()
    private var cepstrum = [RunningMoments](repeating: RunningMoments(), count: AubioFrames.coefficientCount)
    private var chromaClarity = RunningMoments()
    private var chromaChange = RunningMoments()
    private var previousChroma: [Double]?
    private var onsets = 0
    private var tempos: [Float] = []
    private let pitchClasses: PitchClasses

    /// Statistics for frames of `frames`' shape.
    init(frames: AubioFrames) {
        pitchClasses = PitchClasses(bins: frames.binCount, window: AubioFrames.windowSize, sampleRate: frames.sampleRate)
    }

    /// Counts one hop: `hop` is what `frames.process` returned for it, and `frames` still
    /// holds its spectrum.
    mutating func add(_ hop: AubioFrames.Hop, from frames: AubioFrames) {
        let decibels = hop.power > 0 ? max(Self.floor, 10 * log10(Double(hop.power))) : Self.floor
        level.add(decibels)
        zeroCrossings.add(Double(hop.zeroCrossings))
        if hop.isOnset { onsets += 1 }
        if hop.isBeat, hop.tempo > 0 { tempos.append(hop.tempo) }
        // The flux descriptor remembers the last spectrum: it sees every frame.
        let gained = Double(frames.flux())
        guard decibels >= Self.soundGate else {
            previousChroma = nil
            return
        }
        let magnitudes = frames.magnitudes
        var total = 0.0, logSum = 0.0
        for bin in 1..<frames.binCount {
            let power = Double(magnitudes[bin]) * Double(magnitudes[bin]) + 1e-12
            total += power
            logSum += log(power)
        }
        let bins = Double(frames.binCount - 1)
        flatness.add(exp(logSum / bins) / (total / bins))
        var magnitude = 0.0
        for bin in 0..<frames.binCount { magnitude += Double(magnitudes[bin]) }
        if magnitude > 0 { flux.add(gained / magnitude) }
        centroid.add(Double(frames.centroid()))
        rolloff.add(Double(frames.rolloff()))
        let coefficients = frames.cepstrum()
        for index in 0..<AubioFrames.coefficientCount { cepstrum[index].add(Double(coefficients[index])) }
        if let shares = pitchClasses.shares(of: magnitudes) {
            chromaClarity.add(shares.max() ?? 0)
            if let previousChroma {
                chromaChange.add(zip(shares, previousChroma).reduce(0) { $0 + abs($1.0 - $1.1) } / 2)
            }
            previousChroma = shares
        } else {
            previousChroma = nil
        }
    }

    /// The track's features in ``SoundFeature`` order, for `seconds` of audio analysed.
    func features(seconds: Double) -> [Float] {
        var values = [Double](repeating: 0, count: SoundFeature.count)
        func set(_ feature: SoundFeature, _ value: Double) { values[feature.rawValue] = value }
        set(.loudness, level.count > 0 ? level.mean : Self.floor)
        set(.loudnessSpread, level.deviation)
        set(.centroid, centroid.mean)
        set(.centroidSpread, centroid.deviation)
        set(.rolloff, rolloff.mean)
        set(.rolloffSpread, rolloff.deviation)
        set(.flatness, flatness.mean)
        set(.flatnessSpread, flatness.deviation)
        set(.flux, flux.mean)
        set(.zeroCrossings, zeroCrossings.mean)
        set(.onsetRate, seconds > 0 ? Double(onsets) / seconds : 0)
        set(.tempo, Double(Self.median(tempos)))
        for (index, feature) in SoundFeature.mfccMeans.enumerated() { set(feature, cepstrum[index].mean) }
        set(.timbreSpread, cepstrum[1...4].reduce(0) { $0 + $1.deviation } / 4)
        set(.chromaClarity, chromaClarity.mean)
        set(.chromaChange, chromaChange.mean)
        return values.map { $0.isFinite ? Float($0) : 0 }
    }

    /// The middle value (the mean of the two middle ones for an even count), 0 for none.
    private static func median(_ values: [Float]) -> Float {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
