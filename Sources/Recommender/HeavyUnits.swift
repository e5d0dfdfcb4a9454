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

        /// The same unit with its share multiplied by `factor` (a listener's fade of the
        /// household's units): for a positive factor, the order among units multiplied alike
        /// stays.
        package func scaled(by factor: Double) -> Unit {
            var unit = self
            unit.share = factor * share
            return unit
        }

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
    ///
    /// Walked in one pass that stops where the choice ends (the budget filled, or the end of
    /// the band where a unit no longer fitted), so a long list costs only what is chosen
    /// from its head: a new listener's household hearts (``Merged``) may be thousands.
    package static func chosen(from sorted: some Sequence<Unit>, budget: Int, groupLimit: Int) -> [Unit] {
        var chosen: [Unit] = []
        var taken = 0
        var band = Int.max, overflowed = false
        for unit in sorted {
            let unitBand = Self.band(unit.share)
            if unitBand != band {
                // A band did not fit whole: the ones below it are not looked at.
                if overflowed { break }
                band = unitBand
            }
            guard unit.count <= groupLimit, unit.count <= budget else { continue }
            if taken + unit.count <= budget {
                chosen.append(unit)
                taken += unit.count
                if taken == budget { break }
            } else {
                overflowed = true
            }
        }
        return chosen
    }

    /// Two lists in ``Unit/precedes(_:)`` order, walked as one list in that order without
    /// building it (of equal units, the first list's comes first): a listener's own heavy
    /// units and the household's, faded, which ``chosen(from:budget:groupLimit:)`` reads
    /// only as far as it chooses.
    package struct Merged<Second: Sequence<Unit>>: Sequence, IteratorProtocol {
        private var first: IndexingIterator<[Unit]>
        private var second: Second.Iterator
        private var nextFirst: Unit?
        private var nextSecond: Unit?

        /// `first` and `second`, each sorted, as one.
        package init(_ first: [Unit], _ second: Second) {
            self.first = first.makeIterator()
            self.second = second.makeIterator()
            nextFirst = self.first.next()
            nextSecond = self.second.next()
        }

        /// The next unit of either list, in order.
        package mutating func next() -> Unit? {
            switch (nextFirst, nextSecond) {
            case (nil, nil):
                return nil
            case (let unit?, nil):
                nextFirst = first.next()
                return unit
            case (nil, let unit?):
                nextSecond = second.next()
                return unit
            case (let own?, let other?):
                if other.precedes(own) {
                    nextSecond = second.next()
                    return other
                }
                nextFirst = first.next()
                return own
            }
        }
    }

    /// The band of a share: a quarter of share wide, the last one open above.
    private static func band(_ share: Double) -> Int {
        share >= 31 / 4 ? 31 : Int(share * 4)
    }
}
