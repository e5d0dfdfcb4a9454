import MusicLibrary

/// The songs, artists, albums and genres whose share of a score lifts them well above a
/// typical song (at least ``threshold``), kept sorted the most lifted first, so that a
/// draw over a large channel finds its heavy songs (``DrawPool``) by walking the first few
/// rather than by scanning and sorting everything the listener ever taught.
///
/// A listener of a few years has taught thousands of songs and about as many albums and
/// artists; scanning them all and sorting the band where the budget runs out, for every
/// list, was a tenth of a busy station's CPU. A report moves at most four shares (its song,
/// artist, album and genre), so ``ListenerWeights`` keeps this list up to date with four
/// binary searches a report.
///
/// Units are ordered by share (larger first), then by size (smaller first), then by kind
/// (song, artist, album, genre), then by id: a total order, so the walk gives the same
/// songs whatever order the shares were learned in.
package struct HeavyUnits: Sendable, Equatable {
    /// What a unit names.
    package enum Kind: Int, Sendable {
        /// One track, by position.
        case song
        /// An artist, by facet id.
        case artist
        /// An album, by facet id.
        case album
        /// A genre, by facet id.
        case genre

        /// The kind of a group of `facet`.
        package init(_ facet: TrackFacet) {
            switch facet {
            case .artist: self = .artist
            case .album: self = .album
            case .genre: self = .genre
            }
        }
    }

    /// One song or group and its share, in 16 bytes: a listener of some years keeps a few
    /// thousand.
    package struct Unit: Sendable, Equatable {
        /// The share of the score its songs get from it.
        package var share: Double
        /// How many songs it names, held to Int32.
        private var songs: Int32
        /// The kind in the top two bits, the id below: ordered as kind, then id.
        private var key: UInt32

        /// Creates a unit. Track positions and facet ids stay below 2^30 (a library of a
        /// billion tracks would not fit in memory).
        package init(share: Double, count: Int, kind: Kind, id: Int) {
            self.share = share
            songs = Int32(clamping: count)
            key = UInt32(kind.rawValue) << 30 | UInt32(truncatingIfNeeded: id) & 0x3FFF_FFFF
        }

        /// How many songs it names (1 for a song).
        package var count: Int { Int(songs) }

        /// What it names.
        package var kind: Kind {
            switch key >> 30 {
            case 0: .song
            case 1: .artist
            case 2: .album
            default: .genre
            }
        }

        /// The track position (a song) or facet id (a group).
        package var id: Int { Int(key & 0x3FFF_FFFF) }

        /// Whether it is heavy: a share of at least ``HeavyUnits/threshold``, on songs.
        package var isHeavy: Bool { share >= HeavyUnits.threshold && songs > 0 }

        /// Whether this unit comes before `other`: more lifted, or as lifted and smaller,
        /// then by kind and id.
        package func precedes(_ other: Unit) -> Bool {
            if share != other.share { return share > other.share }
            if songs != other.songs { return songs < other.songs }
            return key < other.key
        }
    }

    /// The smallest share that makes a song or group heavy: at the middle of the variety
    /// dial, about 1.4 times likelier than a song without it.
    package static let threshold = 0.25

    /// The heavy units, most lifted first (``Unit/precedes(_:)``).
    package private(set) var units: [Unit] = []

    /// No unit.
    package init() {}

    /// The heavy ones among `candidates` (any order).
    package init(_ candidates: [Unit]) {
        units = candidates.filter(\.isHeavy)
        units.sort { $0.precedes($1) }
    }

    /// Moves the unit `kind`/`id` of `count` songs from share `old` to share `new`: out of
    /// the list if it was heavy, in at its place if it is heavy now.
    package mutating func move(_ kind: Kind, id: Int, count: Int, from old: Double, to new: Double) {
        guard old != new else { return }
        let was = Unit(share: old, count: count, kind: kind, id: id)
        if was.isHeavy {
            let index = place(of: was)
            if index < units.count, units[index] == was { units.remove(at: index) }
        }
        let now = Unit(share: new, count: count, kind: kind, id: id)
        if now.isHeavy { units.insert(now, at: place(of: now)) }
    }

    /// The first index whose unit does not precede `unit`.
    private func place(of unit: Unit) -> Int {
        var low = 0, high = units.count
        while low < high {
            let middle = (low + high) / 2
            if units[middle].precedes(unit) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The most lifted of `sorted` (in ``Unit/precedes(_:)`` order) that fit in `budget`
    /// songs, leaving out groups of more than `groupLimit` songs: by bands of a quarter of
    /// share, every unit of each band while whole bands fit, then, in the band where the
    /// budget runs out, each unit in order that still fits.
    package static func chosen(from sorted: [Unit], budget: Int, groupLimit: Int) -> [Unit] {
        func fits(_ unit: Unit) -> Bool { unit.count <= groupLimit && unit.count <= budget }
        var chosen: [Unit] = []
        var taken = 0, start = 0
        while start < sorted.count {
            let band = Self.band(sorted[start].share)
            var end = start, songs = 0
            while end < sorted.count, Self.band(sorted[end].share) == band {
                if fits(sorted[end]) { songs += sorted[end].count }
                end += 1
            }
            guard taken + songs <= budget else {
                for unit in sorted[start..<end] where fits(unit) && taken + unit.count <= budget {
                    chosen.append(unit)
                    taken += unit.count
                    if taken == budget { break }
                }
                return chosen
            }
            chosen += sorted[start..<end].filter(fits)
            taken += songs
            start = end
        }
        return chosen
    }

    /// The heavy ones among `candidates` (any order) that ``chosen(from:budget:groupLimit:)``
    /// can choose, whatever list they are merged into, sorted: those below the band where
    /// `budget` runs out among them alone are left out unsorted (merged with more units, the
    /// budget runs out in that band or a higher one). For a list made per draw: a new
    /// listener's faded household hearts, tens of thousands on a large station, of which only
    /// the top bands are sorted.
    package static func sortedCandidates(_ candidates: [Unit], budget: Int, groupLimit: Int) -> [Unit] {
        let units = candidates.filter { $0.isHeavy && $0.count <= groupLimit && $0.count <= budget }
        var songsInBand = [Int](repeating: 0, count: 32)
        for unit in units { songsInBand[band(unit.share)] += unit.count }
        var cut = 31, taken = 0
        while cut > 0, taken + songsInBand[cut] <= budget {
            taken += songsInBand[cut]
            cut -= 1
        }
        var kept = units.filter { band($0.share) >= cut }
        kept.sort { $0.precedes($1) }
        return kept
    }

    /// The band of a share: a quarter of share wide, the last one open above.
    private static func band(_ share: Double) -> Int {
        share >= 31 / 4 ? 31 : Int(share * 4)
    }

    /// `first` and `second` (each sorted) as one sorted list.
    package static func merged(_ first: [Unit], _ second: [Unit]) -> [Unit] {
        guard !first.isEmpty else { return second }
        guard !second.isEmpty else { return first }
        var merged: [Unit] = []
        merged.reserveCapacity(first.count + second.count)
        var i = 0, j = 0
        while i < first.count, j < second.count {
            if second[j].precedes(first[i]) {
                merged.append(second[j])
                j += 1
            } else {
                merged.append(first[i])
                i += 1
            }
        }
        merged += first[i...]
        merged += second[j...]
        return merged
    }
}
