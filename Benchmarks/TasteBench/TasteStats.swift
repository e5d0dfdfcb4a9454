/// One song of a run: what it was and what the listener did with it.
package struct Heard: Sendable, Equatable {
    /// The song.
    package var truth: SongTruth
    /// The listener's verdict.
    package var verdict: Verdict

    /// A song heard.
    package init(_ truth: SongTruth, _ verdict: Verdict) {
        self.truth = truth
        self.verdict = verdict
    }
}

/// What a stretch of a run came to: the shares the issue measures.
package struct WindowStats: Sendable, Equatable {
    /// The songs, numbered from 1.
    package var first: Int, last: Int
    /// The share neither skipped nor trashed.
    package var notDisliked: Double
    /// The share loved.
    package var loved: Double
    /// Distinct artists among them.
    package var artists: Double

    /// A window's numbers.
    package init(first: Int, last: Int, notDisliked: Double, loved: Double, artists: Double) {
        self.first = first
        self.last = last
        self.notDisliked = notDisliked
        self.loved = loved
        self.artists = artists
    }
}

/// The statistics of runs: per window of 20 songs, over any stretch, and how long it took
/// to get good. Pure functions of the songs heard.
package enum TasteStats {
    /// The window.
    package static let windowSize = 20

    /// Songs `first` through `last` (from 1, inclusive, cut to the run).
    package static func stretch(_ heard: [Heard], _ first: Int, _ last: Int) -> WindowStats {
        let slice = heard[min(heard.count, max(0, first - 1))..<min(heard.count, last)]
        let count = Double(max(1, slice.count))
        return WindowStats(first: first, last: min(last, heard.count),
                           notDisliked: Double(slice.filter { !$0.verdict.isDisliked }.count) / count,
                           loved: Double(slice.filter { $0.verdict == .loved }.count) / count,
                           artists: Double(Set(slice.map(\.truth.artist)).count))
    }

    /// Consecutive windows of ``windowSize`` songs (the last one may be shorter).
    package static func windows(_ heard: [Heard], size: Int = windowSize) -> [WindowStats] {
        stride(from: 1, through: heard.count, by: size).map { stretch(heard, $0, $0 + size - 1) }
    }

    /// The first song number `n` at which the `size` songs ending at `n`, all after song
    /// `after`, had at least `share` not disliked: how many songs it took to pass `share`.
    /// Nil when the run never did.
    package static func songsToPass(_ heard: [Heard], share: Double, size: Int = windowSize, after: Int = 0) -> Int? {
        guard heard.count >= after + size else { return nil }
        let needed = Int((share * Double(size)).rounded(.up))
        var good = heard[after..<(after + size)].filter { !$0.verdict.isDisliked }.count
        if good >= needed { return after + size }
        for end in (after + size)..<heard.count {
            good += heard[end].verdict.isDisliked ? 0 : 1
            good -= heard[end - size].verdict.isDisliked ? 0 : 1
            if good >= needed { return end + 1 }
        }
        return nil
    }

    /// The windows of several runs (the shuffle's), averaged window by window.
    package static func mean(_ runs: [[WindowStats]]) -> [WindowStats] {
        guard let first = runs.first else { return [] }
        return first.indices.map { index in
            let column = runs.compactMap { $0.indices.contains(index) ? $0[index] : nil }
            let count = Double(column.count)
            return WindowStats(first: first[index].first, last: first[index].last,
                               notDisliked: column.map(\.notDisliked).reduce(0, +) / count,
                               loved: column.map(\.loved).reduce(0, +) / count,
                               artists: column.map(\.artists).reduce(0, +) / count)
        }
    }

    /// The median of several runs' songs-to-pass, a run that never passed counting as
    /// later than any; nil when half or more never did.
    package static func median(_ values: [Int?]) -> Int? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted { ($0 ?? .max) < ($1 ?? .max) }
        return sorted[(sorted.count - 1) / 2]
    }
}
