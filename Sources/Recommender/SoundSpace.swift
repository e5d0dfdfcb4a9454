/// How the tracks of one library sound, as the recommender needs it: which positions have
/// been measured and how far apart two of them sound. MusicLibrary's `SoundTable`, which
/// the station's sound analysis publishes, is one; the tests use small tables of their own.
///
/// Distances are on the table's scale: 0 for tracks that measure the same, about 1.4 on
/// average for two tracks drawn at random (z-scored features, weights summing to 1).
package protocol SoundSpace: Sendable {
    /// How many tracks the library has (positions are below it).
    var trackCount: Int { get }
    /// How many of them have been measured.
    var analysedCount: Int { get }
    /// Whether the track at `position` has been measured.
    func isAnalysed(_ position: Int) -> Bool
    /// How far apart two tracks sound; `nil` when either has not been measured.
    func distance(_ first: Int, _ second: Int) -> Float?
    /// The closest measured track to the one at `position` among `others` (the last of
    /// equally close ones, in order) and its distance; `nil` when none is measured or the
    /// track is not.
    func nearest(to position: Int, among others: [Int]) -> (position: Int, distance: Float)?
    /// The distance from the track at `position` to the closest measured track among
    /// `others`, where none can be closer than `floor`: the search ends at the first one that
    /// close. `nil` when none is measured or the track is not.
    func nearestDistance(to position: Int, among others: [Int], atLeast floor: Float) -> Float?
    /// For each of `positions`, in order: the distance to the closest measured track among
    /// `others`, equal to ``distance(_:_:)``'s; `.infinity` when the track or every one of
    /// `others` is not measured.
    func nearestDistances(from positions: [Int], among others: [Int]) -> [Float]
}

extension SoundSpace {
    /// ``nearest(to:among:)`` by ``distance(_:_:)``, for spaces with nothing faster.
    package func nearest(to position: Int, among others: [Int]) -> (position: Int, distance: Float)? {
        var best: (position: Int, distance: Float)?
        for other in others {
            if let distance = distance(position, other), distance <= best?.distance ?? .infinity { best = (other, distance) }
        }
        return best
    }

    /// ``nearestDistance(to:among:atLeast:)`` by ``distance(_:_:)``, for spaces with
    /// nothing faster.
    package func nearestDistance(to position: Int, among others: [Int], atLeast floor: Float) -> Float? {
        var best: Float?
        for other in others {
            guard let distance = distance(position, other) else { continue }
            if distance < best ?? .infinity { best = distance }
            if distance <= floor { break }
        }
        return best
    }

    /// ``nearestDistances(from:among:)`` by ``nearestDistance(to:among:atLeast:)``, for
    /// spaces with nothing faster.
    package func nearestDistances(from positions: [Int], among others: [Int]) -> [Float] {
        positions.map { nearestDistance(to: $0, among: others, atLeast: 0) ?? .infinity }
    }
}
