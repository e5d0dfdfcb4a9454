/// How the tracks of one ``Library`` sound, as the recommender compares them: each analysed
/// track's features (the station's sound analysis measures them from the decoded audio:
/// loudness, spectral shape and change, timbre, tempo, chroma) as z-scores over the
/// library's analysed tracks, by track position, with a weighted distance between them.
///
/// Immutable: as the analysis goes on, the station builds a new table over the same library
/// and swaps it in, so a request sees one table from start to end. A table belongs to the
/// library it was built for: positions are that library's.
///
/// **Scale of the distance.** Each feature is a z-score (its mean over the library 0, its
/// standard deviation 1, clipped to ±``zLimit``) and the weights sum to 1, so the distance
/// is a weighted root-mean-square difference: 0 for two tracks that measure the same,
/// about √2 ≈ 1.4 on average for two tracks drawn at random, past 3 for opposites.
package struct SoundTable: Sendable {
    /// No track analysed: what a library is served with until the analysis reports.
    package static let empty = SoundTable(trackCount: 0, weights: [], raw: { _ in nil })

    /// How far from the library's mean (in standard deviations) a feature may count: one
    /// odd track (a minute of silence, a test tone) must not stretch the scale of the rest.
    package static let zLimit: Float = 4

    /// How many tracks the library has (positions are below it).
    package let trackCount: Int
    /// The number of features per track.
    package let dimensions: Int
    /// How many tracks have been analysed.
    package let analysedCount: Int
    /// Each feature's weight in the distance, summing to 1.
    package let weights: [Float]
    /// `trackCount × dimensions` z-scores, one row per position; zeros for a track not analysed.
    private let values: [Float]
    /// Whether each position has been analysed.
    private let analysed: [Bool]
    /// How loud each track and album measured: kept with the features, since the analysis
    /// measures both in one pass and publishes them together.
    package let loudness: LoudnessTable

    /// Builds the table of a library of `trackCount` tracks.
    ///
    /// - Parameters:
    ///   - trackCount: the library's track count.
    ///   - weights: each feature's weight (any positive scale: they are made to sum to 1);
    ///     their count is the number of features.
    ///   - raw: the features measured for the track at a position, `nil` when it has not
    ///     been analysed (or could not be); a vector of another length counts as not analysed.
    ///   - loudness: the library's loudness, built over the same positions.
    package init(trackCount: Int, weights: [Float], raw: (Int) -> [Float]?, loudness: LoudnessTable = .empty) {
        self.loudness = loudness
        let dimensions = weights.count
        let total = weights.reduce(0, +)
        self.trackCount = trackCount
        self.dimensions = dimensions
        self.weights = total > 0 ? weights.map { $0 / total } : weights
        var values = [Float](repeating: 0, count: trackCount * dimensions)
        var analysed = [Bool](repeating: false, count: trackCount)
        var sums = [Double](repeating: 0, count: dimensions)
        var squares = [Double](repeating: 0, count: dimensions)
        var count = 0
        for position in 0..<trackCount {
            guard dimensions > 0, let vector = raw(position), vector.count == dimensions,
                  vector.allSatisfy(\.isFinite) else { continue }
            analysed[position] = true
            count += 1
            let row = position * dimensions
            for index in 0..<dimensions {
                values[row + index] = vector[index]
                sums[index] += Double(vector[index])
                squares[index] += Double(vector[index]) * Double(vector[index])
            }
        }
        analysedCount = count
        if count > 0 {
            // z = (x − mean) / deviation; a feature that does not vary counts for nothing.
            let means = sums.map { $0 / Double(count) }
            let scales: [Float] = (0..<dimensions).map { index in
                let variance = max(0, squares[index] / Double(count) - means[index] * means[index])
                let deviation = variance.squareRoot()
                return deviation > 1e-9 * max(1, abs(means[index])) ? Float(1 / deviation) : 0
            }
            for position in 0..<trackCount where analysed[position] {
                let row = position * dimensions
                for index in 0..<dimensions {
                    let z = (values[row + index] - Float(means[index])) * scales[index]
                    values[row + index] = min(Self.zLimit, max(-Self.zLimit, z))
                }
            }
        }
        self.values = values
        self.analysed = analysed
    }

    /// Whether the track at `position` has been analysed.
    package func isAnalysed(_ position: Int) -> Bool {
        position >= 0 && position < trackCount && analysed[position]
    }

    /// The track's normalized features (z-scores, in the analysis' feature order), `nil`
    /// when it has not been analysed.
    package func vector(at position: Int) -> ArraySlice<Float>? {
        guard isAnalysed(position) else { return nil }
        return values[(position * dimensions)..<((position + 1) * dimensions)]
    }

    /// The weighted distance between two tracks' sounds (see the type's note on its scale),
    /// `nil` when either has not been analysed.
    package func distance(_ first: Int, _ second: Int) -> Float? {
        guard isAnalysed(first), isAnalysed(second) else { return nil }
        return values.withUnsafeBufferPointer { all in
            weighted(all.baseAddress! + first * dimensions, all.baseAddress! + second * dimensions)
        }
    }

    /// The weighted distance between a track's sound and `point`, a vector of normalized
    /// features (a ``centroid(of:)``); `nil` when the track has not been analysed or
    /// `point` has another length.
    package func distance(from position: Int, to point: [Float]) -> Float? {
        guard isAnalysed(position), point.count == dimensions else { return nil }
        return values.withUnsafeBufferPointer { all in
            point.withUnsafeBufferPointer { weighted(all.baseAddress! + position * dimensions, $0.baseAddress!) }
        }
    }

    /// The mean of the normalized features of the analysed tracks among `positions` (the
    /// sound of the songs a listener liked, say); `nil` when none of them has been analysed.
    package func centroid(of positions: some Sequence<Int>) -> [Float]? {
        var sum = [Float](repeating: 0, count: dimensions)
        var count = 0
        for position in positions where isAnalysed(position) {
            let row = position * dimensions
            for index in 0..<dimensions { sum[index] += values[row + index] }
            count += 1
        }
        guard count > 0 else { return nil }
        return sum.map { $0 / Float(count) }
    }

    /// The distance from the track at `position` to the closest analysed track among
    /// `others`, `nil` when either side has nothing analysed.
    package func nearestDistance(from position: Int, to others: some Sequence<Int>) -> Float? {
        guard isAnalysed(position) else { return nil }
        var nearest: Float?
        for other in others {
            if let distance = distance(position, other), distance < (nearest ?? .infinity) { nearest = distance }
        }
        return nearest
    }

    /// The closest analysed track to the one at `position` among `others` (the last of
    /// equally close ones, in order: the newest of a listener's songs, which is the last to
    /// leave its memory) and its distance, each distance ``distance(_:_:)``'s; `nil` when
    /// either side has nothing analysed.
    package func nearest(to position: Int, among others: [Int]) -> (position: Int, distance: Float)? {
        guard isAnalysed(position) else { return nil }
        return values.withUnsafeBufferPointer { all in
            let base = all.baseAddress!, row = base + position * dimensions
            var best: (position: Int, distance: Float)?
            for other in others where isAnalysed(other) {
                let distance = weighted(row, base + other * dimensions)
                if distance <= best?.distance ?? .infinity { best = (other, distance) }
            }
            return best
        }
    }

    /// The distance from the track at `position` to the closest analysed track among
    /// `others`, each distance ``distance(_:_:)``'s, when the caller knows none is closer
    /// than `floor`: the search ends at the first one that close (with a floor of 0, on a
    /// library of copies, the first song looked at ends it). `nil` when either side has
    /// nothing analysed.
    package func nearestDistance(to position: Int, among others: [Int], atLeast floor: Float) -> Float? {
        guard isAnalysed(position) else { return nil }
        return values.withUnsafeBufferPointer { all in
            let base = all.baseAddress!, row = base + position * dimensions
            var best: Float?
            for other in others where isAnalysed(other) {
                let distance = weighted(base + other * dimensions, row)
                if distance < best ?? .infinity { best = distance }
                if distance <= floor { break }
            }
            return best
        }
    }

    /// For each of `positions`, in order: the distance to the closest analysed track among
    /// `others`, each distance ``distance(_:_:)``'s; `.infinity` for a track not analysed or
    /// when none of `others` is. What a draw asks of a listener's remembered songs for the
    /// tracks it weighs: the squared sums are compared (the root of the least is the least
    /// root) and each is given up once it passes the best so far.
    package func nearestDistances(from positions: [Int], among others: [Int]) -> [Float] {
        let measured = others.filter { isAnalysed($0) }
        guard !measured.isEmpty, dimensions > 0 else {
            return [Float](repeating: .infinity, count: positions.count)
        }
        let dimensions = dimensions
        return values.withUnsafeBufferPointer { all in
            weights.withUnsafeBufferPointer { weights in
                analysed.withUnsafeBufferPointer { analysed in
                    let base = all.baseAddress!, weights = weights.baseAddress!
                    return positions.map { position in
                        guard position >= 0, position < analysed.count, analysed[position] else { return .infinity }
                        let row = base + position * dimensions
                        var best = Float.infinity
                        for other in measured {
                            let sum = Self.squared(base + other * dimensions, row, weights, dimensions, below: best)
                            if sum < best { best = sum }
                        }
                        return best.squareRoot()
                    }
                }
            }
        }
    }

    /// `sqrt(Σ wᵢ (aᵢ − bᵢ)²)` over the features.
    private func weighted(_ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>) -> Float {
        weights.withUnsafeBufferPointer { Self.weighted(first, second, $0.baseAddress, dimensions) }
    }

    /// `sqrt(Σ wᵢ (aᵢ − bᵢ)²)` over `dimensions` features (``squared(_:_:_:_:below:)``'s
    /// sum, so the two give the same bits).
    @inline(__always)
    private static func weighted(_ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>,
                                 _ weights: UnsafePointer<Float>?, _ dimensions: Int) -> Float {
        guard let weights else { return 0 }
        return squared(first, second, weights, dimensions, below: .infinity).squareRoot()
    }

    /// `Σ wᵢ (aᵢ − bᵢ)²` over `dimensions` features, four at a time: the sums of every
    /// fourth feature are kept apart and added at the end (then the features past the last
    /// four), the one order every distance of a table is summed in, so two ways to the same
    /// distance give the same bits. Gives up, answering `.infinity`, once the sum so far
    /// reaches `bound`: every term is at least 0 and IEEE addition never decreases a sum by
    /// adding one, so the full sum could not come out below it. A search for the nearest of
    /// a few songs passes its best so far and abandons most of the others part-way.
    @inline(__always)
    private static func squared(_ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>,
                                _ weights: UnsafePointer<Float>, _ dimensions: Int, below bound: Float) -> Float {
        var lanes = SIMD4<Float>()
        var index = 0
        while index + 4 <= dimensions {
            let a = UnsafeRawPointer(first + index).loadUnaligned(as: SIMD4<Float>.self)
            let b = UnsafeRawPointer(second + index).loadUnaligned(as: SIMD4<Float>.self)
            let w = UnsafeRawPointer(weights + index).loadUnaligned(as: SIMD4<Float>.self)
            let difference = a - b
            lanes += w * difference * difference
            index += 4
            if index & 7 == 0, lanes.sum() >= bound { return .infinity }
        }
        var sum = lanes.sum()
        while index < dimensions {
            let difference = first[index] - second[index]
            sum += weights[index] * difference * difference
            index += 1
        }
        return sum
    }
}
