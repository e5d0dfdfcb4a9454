import Foundation

/// How loud the tracks of one ``Library`` measured, by track position, and their albums:
/// what a station levels its songs by (``Leveling``).
///
/// An album's loudness is BS.1770's gating done track by track: the energy mean of its
/// measured tracks' integrated loudness, each weighted by its length,
/// `10·log10(Σ dᵢ·10^(Lᵢ/10) / Σ dᵢ)`, then again over the tracks no more than 10 LU below
/// that (the relative gate, which over the album played through would drop a much quieter
/// track's blocks). Each track's own quiet blocks are already gated out of its value, so
/// this is the album played through within a fraction of a LU, without keeping every
/// track's blocks. Its peak is its loudest track's. A silent track counts for neither.
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
        // Per album: its measured tracks as (loudness, length), and its highest peak.
        var members: [String: (tracks: [(loudness: Double, weight: Double)], peak: Double?)] = [:]
        var measured = 0
        for position in 0..<trackCount {
            guard let value = loudness(position), let integrated = value.integrated, integrated.isFinite else { continue }
            let peak = value.truePeak.flatMap { $0.isFinite ? $0 : nil }
            tracks[position] = SIMD2(Float(integrated), Float(peak ?? .nan))
            measured += 1
            let id = album(position)
            guard !id.isEmpty else { continue }
            var entry = members[id] ?? ([], nil)
            entry.tracks.append((integrated, Double(max(1, lengths(position)))))
            if let peak { entry.peak = max(entry.peak ?? peak, peak) }
            members[id] = entry
        }
        var levels: [String: SIMD2<Float>] = [:]
        for (id, entry) in members {
            guard let ungated = Self.mean(entry.tracks),
                  let gated = Self.mean(entry.tracks.filter { $0.loudness >= ungated - Self.relativeGate }) else { continue }
            levels[id] = SIMD2(Float(gated), Float(entry.peak ?? .nan))
        }
        var albums = [SIMD2<Float>](repeating: unknown, count: trackCount)
        for position in 0..<trackCount {
            let id = album(position)
            guard !id.isEmpty, let level = levels[id] else { continue }
            albums[position] = level
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

    /// BS.1770's relative gate: blocks more than 10 LU below the ungated loudness do not count.
    private static let relativeGate = 10.0

    /// The length-weighted energy mean of `tracks`' loudness, `10·log10(Σ dᵢ·10^(Lᵢ/10) / Σ dᵢ)`
    /// (`10^(L/10)` is the mean-square energy a loudness stands for, less a constant offset);
    /// `nil` for none.
    private static func mean(_ tracks: [(loudness: Double, weight: Double)]) -> Double? {
        var energy = 0.0, weight = 0.0
        for track in tracks {
            energy += track.weight * pow(10, track.loudness / 10)
            weight += track.weight
        }
        guard weight > 0, energy > 0 else { return nil }
        return 10 * log10(energy / weight)
    }
}
