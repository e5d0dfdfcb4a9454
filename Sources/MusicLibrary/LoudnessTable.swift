import Foundation

/// How loud the tracks of one ``Library`` measured, by track position, and their albums:
/// what a station levels its songs by (``Leveling``).
///
/// An album's loudness is the energy mean of its measured tracks' integrated loudness,
/// each weighted by its length, `10·log10(Σ dᵢ·10^(Lᵢ/10) / Σ dᵢ)`: the album played
/// through, block by block, less the gating BS.1770 would redo over the whole (each track's
/// quiet blocks are already gated out of its own value). Its peak is its loudest track's.
/// A silent track (no integrated loudness) counts for neither.
///
/// Immutable, built with the ``SoundTable`` it belongs to and swapped in with it.
package struct LoudnessTable: Sendable {
    /// Nothing measured.
    package static let empty = LoudnessTable(trackCount: 0, albums: { _ in "" }, lengths: { _ in 0 }, loudness: { _ in nil })

    /// Per position: integrated loudness (LUFS) and true peak (dBTP), NaN where unknown.
    private let tracks: [SIMD2<Float>]
    /// Per position: its album's loudness and peak, NaN where unknown.
    private let albums: [SIMD2<Float>]

    /// How many tracks have a loudness.
    package let measuredCount: Int

    /// Builds the table of a library of `trackCount` tracks.
    ///
    /// - Parameters:
    ///   - albums: the album id of the track at a position (tracks of one id make an album;
    ///     an empty id is no album).
    ///   - lengths: its length in seconds (an album's weights).
    ///   - loudness: its measured loudness, `nil` when not measured or silent.
    package init(trackCount: Int, albums album: (Int) -> String, lengths: (Int) -> Int, loudness: (Int) -> Loudness?) {
        let unknown = SIMD2<Float>(.nan, .nan)
        var tracks = [SIMD2<Float>](repeating: unknown, count: trackCount)
        // Per album: Σ d·10^(L/10), Σ d, highest peak.
        var sums: [String: (energy: Double, weight: Double, peak: Double?)] = [:]
        var measured = 0
        for position in 0..<trackCount {
            guard let value = loudness(position), let integrated = value.integrated, integrated.isFinite else { continue }
            let peak = value.truePeak.flatMap { $0.isFinite ? $0 : nil }
            tracks[position] = SIMD2(Float(integrated), Float(peak ?? .nan))
            measured += 1
            let id = album(position)
            guard !id.isEmpty else { continue }
            let weight = Double(max(1, lengths(position)))
            var sum = sums[id] ?? (0, 0, nil)
            sum.energy += weight * Self.energy(integrated)
            sum.weight += weight
            if let peak { sum.peak = max(sum.peak ?? peak, peak) }
            sums[id] = sum
        }
        var albums = [SIMD2<Float>](repeating: unknown, count: trackCount)
        for position in 0..<trackCount {
            let id = album(position)
            guard !id.isEmpty, let sum = sums[id], sum.weight > 0, sum.energy > 0 else { continue }
            albums[position] = SIMD2(Float(10 * log10(sum.energy / sum.weight)), Float(sum.peak ?? .nan))
        }
        self.tracks = tracks
        self.albums = albums
        measuredCount = measured
    }

    /// The loudness of the track at `position`; `nil` when unknown (not measured yet, or silent).
    package func track(at position: Int) -> Loudness? {
        value(tracks, position)
    }

    /// The loudness of the album of the track at `position`, from its measured tracks;
    /// `nil` when none is measured or the track has no album.
    package func album(at position: Int) -> Loudness? {
        value(albums, position)
    }

    private func value(_ values: [SIMD2<Float>], _ position: Int) -> Loudness? {
        guard position >= 0, position < values.count, !values[position].x.isNaN else { return nil }
        let entry = values[position]
        return Loudness(integrated: Double(entry.x), truePeak: entry.y.isNaN ? nil : Double(entry.y))
    }

    /// `10^(L/10)`: the mean-square energy a loudness stands for, less its constant offset.
    private static func energy(_ loudness: Double) -> Double {
        pow(10, loudness / 10)
    }
}
