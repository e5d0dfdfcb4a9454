import MusicLibrary

/// The features measured so far, by song id (a song id is pinned to its file's path, and
/// nine digits fit in a string without a heap allocation), from which a library's
/// ``SoundTable`` is built.
///
/// One flat array of Float32s, a row of ``SoundFeature/count`` per song, and the row of each
/// song id: about 180 bytes a song with the index, where an array per song would cost
/// another heap block and its header each.
package struct SoundCatalog: Sendable {
    /// The row of each song id in `values`.
    private var rows: [String: Int32] = [:]
    /// ``SoundFeature/count`` values per row.
    private var values: [Float] = []
    /// Per row: integrated loudness (LUFS) and true peak (dBTP), NaN where unknown.
    private var loudness: [SIMD2<Float>] = []

    /// An empty catalog.
    package init() {}

    /// How many tracks have features.
    package var count: Int { rows.count }

    /// Keeps `vector` as the features of the song `sid` and `measured` as its loudness
    /// (`nil`: not measured yet, or silent); a vector of another length than
    /// ``SoundFeature/count`` is not kept.
    package mutating func set(_ vector: [Float], loudness measured: Loudness? = nil, for sid: String) {
        let width = SoundFeature.count
        guard vector.count == width else { return }
        let level = SIMD2<Float>(Float(measured?.integrated ?? .nan), Float(measured?.truePeak ?? .nan))
        if let row = rows[sid] {
            let start = Int(row) * width
            values.replaceSubrange(start..<(start + width), with: vector)
            loudness[Int(row)] = level
        } else {
            rows[sid] = Int32(rows.count)
            values.append(contentsOf: vector)
            loudness.append(level)
        }
    }

    /// The features of the song `sid`, `nil` when it has none.
    package func features(for sid: String) -> [Float]? {
        guard let row = rows[sid] else { return nil }
        let start = Int(row) * SoundFeature.count
        return Array(values[start..<(start + SoundFeature.count)])
    }

    /// The loudness of the song `sid`, `nil` when it has none (not measured, or silent).
    package func loudness(for sid: String) -> Loudness? {
        guard let row = rows[sid] else { return nil }
        let level = loudness[Int(row)]
        guard !level.x.isNaN else { return nil }
        return Loudness(integrated: Double(level.x), truePeak: level.y.isNaN ? nil : Double(level.y))
    }

    /// The table of `library`: its tracks' features, normalized over those measured, and
    /// their loudness.
    package func table(for library: Library) -> SoundTable {
        let tracks = library.tracks
        let loudness = LoudnessTable(trackCount: tracks.count, albums: { tracks[$0].aid },
                                     lengths: { tracks[$0].durationSeconds }, loudness: { self.loudness(for: tracks[$0].sid) })
        return SoundTable(trackCount: tracks.count, weights: SoundFeature.weights,
                          raw: { features(for: tracks[$0].sid) }, loudness: loudness)
    }
}
