import MusicLibrary
import Synchronization

/// What every listener of the station liked, laid over the library served: red hearts per
/// track and per artist. A listener who has taught the station little hears first what the
/// household likes (``share(at:liked:likedByArtist:)``), so a new listener's first list
/// is not a shuffle when others have listened before.
///
/// Built from every song's like count (``SongRatings``) once per library, then moved by
/// each heart given or taken back.
package final class HouseholdTaste: Sendable {
    /// The counts over one library.
    package struct Counts: Sendable {
        /// The library's ``LibraryFacets/generation``.
        package let generation: UInt64
        /// Per track position: how many listeners gave it a heart.
        fileprivate var songLikes: [Int32]
        /// Per artist id: how many hearts its songs carry, over all listeners.
        fileprivate var artistLikes: [Int32]
        /// Hearts over the whole library.
        fileprivate var total: Int
        /// Every hearted song and every artist (not id 0) whose songs carry a heart, as
        /// units at their full share (a song's ``songShare(hearts:)``, an artist's
        /// ``artistShare(hearts:)``), the most lifted first, moved with each heart: a new
        /// listener's draw fades them (a common factor keeps their order) and reads only the
        /// head of the list (``ListenerTaste/heavyPositions(decisiveness:budget:groupLimit:)``).
        package fileprivate(set) var units: HeavyUnits

        /// Per track position: how many listeners gave it a heart.
        package var songHearts: [Int32] { songLikes }

        /// Per artist id: how many hearts its songs carry, over all listeners.
        package var artistHearts: [Int32] { artistLikes }

        /// The share a song's `hearts` give it before the fade: at most ``HouseholdTaste/songCap``.
        package static func songShare(hearts: Int) -> Double {
            hearts > 0 ? min(HouseholdTaste.songCap, Double(hearts)) : 0
        }

        /// The share an artist's `hearts` give its songs before the fade: at most
        /// ``HouseholdTaste/artistCap``.
        package static func artistShare(hearts: Int) -> Double {
            hearts > 0 ? min(HouseholdTaste.artistCap, HouseholdTaste.perArtistLike * Double(hearts)) : 0
        }

        /// Adds `change` hearts to the track at `position` by the artist with id `artist`
        /// (of `artistSongs` songs), moving their units.
        fileprivate mutating func move(_ change: Int32, position: Int, artist: Int, artistSongs: Int) {
            let song = songLikes[position]
            songLikes[position] += change
            total += Int(change)
            units.move(.song, id: position, count: 1, from: Self.songShare(hearts: Int(song)),
                       to: Self.songShare(hearts: Int(songLikes[position])))
            guard artist != 0 else { return }
            let byArtist = artistLikes[artist]
            artistLikes[artist] += change
            units.move(.artist, id: artist, count: artistSongs, from: Self.artistShare(hearts: Int(byArtist)),
                       to: Self.artistShare(hearts: Int(artistLikes[artist])))
        }

        /// The household's share of a track's score, for a listener who liked the track
        /// (`liked`) and `likedByArtist` songs of its artist: what the others liked, not
        /// what the listener did (its own hearts count in its own scores already).
        /// ``artistShare(hearts:)`` of others' hearts on the artist plus ``songShare(hearts:)``
        /// of others' hearts on the song.
        package func share(at position: Int, artist: Int32, liked: Bool, likedByArtist: Int) -> Double {
            let song = Int(songLikes[position]) - (liked ? 1 : 0)
            let byArtist = artist == 0 ? 0 : Int(artistLikes[Int(artist)]) - likedByArtist
            return Self.artistShare(hearts: byArtist) + Self.songShare(hearts: song)
        }

        /// Whether anyone liked anything in this library.
        package var isEmpty: Bool { total <= 0 }
    }

    /// What each heart others gave an artist adds to the artist's songs.
    package static let perArtistLike = 0.75
    /// The most the artist's hearts add.
    package static let artistCap = 3.0
    /// The most the song's own hearts add.
    package static let songCap = 1.0
    /// The listener's taught songs at which the household's share is halved: it fades as
    /// `1 / (1 + taught / fade)`.
    package static let fade = 15.0

    private let counts = Mutex<Counts?>(nil)
    private let ratings: SongRatings

    /// The household of the listeners whose hearts `ratings` counts.
    package init(ratings: SongRatings) {
        self.ratings = ratings
    }

    /// The counts over `library`, built from the ratings when the library changed.
    package func counts(for library: Library) -> Counts {
        if let current = counts.withLock({ $0 }), current.generation == library.facets.generation { return current }
        let likes = ratings.likeCounts()
        var songs = [Int32](repeating: 0, count: library.tracks.count)
        var artists = [Int32](repeating: 0, count: library.facets.idCount(.artist))
        for (sid, count) in likes where count > 0 {
            guard let position = library.position(of: sid) else { continue }
            songs[position] = Int32(count)
            artists[Int(library.facets.artist[position])] += Int32(count)
        }
        artists[0] = 0
        let units = songs.indices.filter { songs[$0] > 0 }.map { position in
            HeavyUnits.Unit(share: Counts.songShare(hearts: Int(songs[position])), count: 1, kind: .song, id: position)
        } + artists.indices.filter { artists[$0] > 0 }.map { id in
            HeavyUnits.Unit(share: Counts.artistShare(hearts: Int(artists[id])), count: library.facets.count(of: Int32(id), .artist),
                            kind: .artist, id: id)
        }
        let built = Counts(generation: library.facets.generation, songLikes: songs, artistLikes: artists,
                           total: songs.reduce(0) { $0 + Int($1) }, units: HeavyUnits(units))
        counts.withLock { $0 = built }
        return built
    }

    /// A listener gave (`+1`) or took back (`-1`) a heart on the track at `position`.
    package func moved(_ change: Int32, position: Int, of library: Library) {
        counts.withLock { counts in
            guard counts?.generation == library.facets.generation else { counts = nil; return }
            let artist = library.facets.artist[position]
            counts?.move(change, position: position, artist: Int(artist),
                         artistSongs: library.facets.count(of: artist, .artist))
        }
    }
}
