import Foundation
import MusicLibrary

/// Everything one draw knows about a listener, over one library: the learned scores of
/// songs, artists, albums and genres (``ListenerWeights``), how each track's sound compares
/// with the songs the listener liked and disliked (``SoundAffinity``), and what the
/// household liked (``HouseholdTaste``), faded as the listener teaches the station.
///
/// A track's score is `learned + sound + household·fade`, where `fade = 1 / (1 + taught /
/// HouseholdTaste.fade)`; its weight is `e^(decisiveness·score)`. Tags and sound add up:
/// on a library whose tags tell songs apart the learned part does most of the work, on
/// one whose tags are all alike only the sound can.
package struct ListenerTaste: DrawTaste, Sendable {
    /// The profile.
    package let profile: ListenerProfile
    /// The profile over the library.
    package let weights: ListenerWeights
    /// The library the positions belong to.
    package let library: Library
    /// The sound scores, when the library's sound has been measured and the listener has
    /// liked or disliked a measured song.
    package let sound: SoundAffinity?
    /// What others liked; `nil` when nobody liked anything.
    package let household: HouseholdTaste.Counts?

    /// How far the listener's verdicts follow its scores (``ProfileTrust``): the share of a
    /// positive score that counts.
    package let confidence: Double

    /// A listener's taste for one draw.
    package init(profile: ListenerProfile, weights: ListenerWeights, library: Library, sound: SoundAffinity?,
                 household: HouseholdTaste.Counts?, confidence: Double = 1) {
        self.confidence = confidence
        self.profile = profile
        self.weights = weights
        self.library = library
        self.sound = sound
        self.household = household
        householdFade = 1 / (1 + Double(weights.songsTaught) / HouseholdTaste.fade)
    }

    /// How much of the household's share counts: 1 for a listener who taught nothing.
    package let householdFade: Double

    /// The sound's share of the track's score.
    package func soundPart(at position: Int) -> Double {
        sound?.part(at: position) ?? 0
    }

    /// The household's share of the track's score, faded.
    package func householdPart(at position: Int) -> Double {
        guard let household else { return 0 }
        let facets = library.facets
        return householdFade * household.share(at: position, artist: facets.artist[position],
                                               liked: weights.isLiked(position),
                                               likedByArtist: weights.likedCount(artistOf: position, facets))
    }

    /// `e^(decisiveness·score)`, a positive score counting ``confidence`` of itself.
    package func weight(at position: Int, decisiveness: Double) -> Double {
        let score = weights.score(at: position, library.facets) + soundPart(at: position) + householdPart(at: position)
        return exp(decisiveness * (score > 0 ? confidence * score : score))
    }

    /// ``weight(at:decisiveness:)``, and ``isOpen(_:)`` with ``isNew(_:)``, of each of
    /// `positions`: the library's columns and the household's counts read once for the
    /// whole list rather than once per track, and the sound's parts (the costly share)
    /// computed once for both.
    package func weighing(of positions: [Int], decisiveness: Double) -> (weights: [Double], openness: [UInt8]) {
        // Column by column, each optional unwrapped once: a struct of arrays bound per track
        // is retained and released per track.
        let facets = library.facets
        var scores = positions.map { weights.score(at: $0, facets) }
        var open = positions.map { weights.isOpen($0, facets) }
        if let sound, !sound.isEmpty {
            let parts = sound.parts(of: positions)
            for slot in scores.indices {
                scores[slot] += parts[slot]
                if open[slot] { open[slot] = parts[slot] > -SoundAffinity.cap / 4 }
            }
        }
        if let household {
            let artists = facets.artist
            let fade = householdFade
            for (slot, position) in positions.enumerated() {
                let artist = artists[position]
                let likedByArtist = artist == 0 ? 0 : weights.likedCount(artist: artist)
                scores[slot] += fade * household.share(at: position, artist: artist, liked: weights.isLiked(position),
                                                       likedByArtist: likedByArtist)
            }
        }
        let confidence = confidence
        for slot in scores.indices {
            let score = scores[slot]
            scores[slot] = exp(decisiveness * (score > 0 ? confidence * score : score))
        }
        let openness = positions.indices.map { slot -> UInt8 in
            open[slot] ? (weights.isNew(positions[slot], facets) ? 2 : 1) : 0
        }
        return (scores, openness)
    }

    /// ``artist(at:)`` of each of `positions`.
    package func artists(of positions: [Int]) -> [Int32] {
        let artists = library.facets.artist
        return positions.map { artists[$0] }
    }

    /// `positions` without the songs the listener trashed.
    package func untrashed(_ positions: [Int]) -> [Int] {
        weights.untrashed(positions)
    }

    /// The songs and groups the listener or the household lifted by at least
    /// ``HeavyUnits/threshold``: the listener's own (``ListenerWeights/heavy``, kept sorted
    /// report by report), and the household's hearted songs and artists
    /// (``HouseholdTaste/Counts/units``), faded, while the fade leaves them heavy (a
    /// listener who taught 45 songs or fewer still weighs a hearted song). The most lifted
    /// first, whole groups of at most `groupLimit` songs, while they fit in `budget` songs
    /// (``HeavyUnits/chosen(from:budget:groupLimit:)``, which reads the two lists merged only
    /// as far as it chooses). `decisiveness` is not needed: the order by share is the order
    /// by weight at any decisiveness. A song can be named twice (by itself and by its group).
    package func heavyPositions(decisiveness: Double, budget: Int, groupLimit: Int) -> [Int] {
        let facets = library.facets
        // One factor for every unit keeps their order, so the ones still heavy are a head.
        let fade = householdFade
        let shared = (household?.units.units ?? []).lazy.map { $0.scaled(by: fade) }.prefix(while: \.isHeavy)
        let chosen = HeavyUnits.chosen(from: HeavyUnits.Merged(weights.heavy.units, shared), budget: budget,
                                       groupLimit: groupLimit)
        var positions: [Int] = []
        for unit in chosen {
            switch unit.kind {
            case .song: positions.append(unit.id)
            case .artist: positions += facets.positions(of: Int32(unit.id), .artist).map(Int.init)
            case .album: positions += facets.positions(of: Int32(unit.id), .album).map(Int.init)
            case .genre: positions += facets.positions(of: Int32(unit.id), .genre).map(Int.init)
            }
        }
        return positions
    }

    /// Open to exploration: nothing of it said no to, and it does not sound like what the
    /// listener disliked.
    package func isOpen(_ position: Int) -> Bool {
        weights.isOpen(position, library.facets) && soundPart(at: position) > -SoundAffinity.cap / 4
    }

    /// By an artist the listener never reported on.
    package func isNew(_ position: Int) -> Bool {
        weights.isNew(position, library.facets)
    }

    /// The artist id of the track.
    package func artist(at position: Int) -> Int32 {
        library.facets.artist[position]
    }

    /// Why the track at `position` was chosen, in terms of what the listener did: the
    /// largest of the shares of its score that the listener can recognize (hearts on its
    /// artist, a liked song it sounds like, the household's hearts), else what the listener
    /// did with its artist, else nothing (a song new to the listener).
    package func reason(for position: Int, explored: Bool) -> PickReason {
        let track = library.tracks[position]
        let facets = library.facets
        if profile.likes(track.sid) { return .likedSong }
        let likedByArtist = weights.likedCount(artistOf: position, facets)
        var best: (share: Double, reason: PickReason)?
        func consider(_ share: Double, _ reason: PickReason) {
            if share >= PickReason.threshold, share > best?.share ?? 0 { best = (share, reason) }
        }
        if likedByArtist > 0 {
            consider(weights.artistPart(at: position, facets), .likedArtist(artist: track.artist, songs: likedByArtist))
        }
        if let sound, let neighbour = sound.nearestLikedSong(to: position) {
            consider(sound.part(at: position), .soundsLike(title: library.tracks[neighbour].title))
        }
        consider(householdPart(at: position), .household)
        if let best { return best.reason }
        if !isNew(position), !track.artist.isEmpty, weights.artistPart(at: position, facets) > 0 {
            return .playedArtist(artist: track.artist)
        }
        return .new
    }
}

/// Why a song was chosen for a listener, in the listener's terms; the station words it.
package enum PickReason: Sendable, Equatable {
    /// The listener gave this song a heart.
    case likedSong
    /// The listener gave `songs` songs of this artist a heart.
    case likedArtist(artist: String, songs: Int)
    /// It sounds like `title`, which the listener liked.
    case soundsLike(title: String)
    /// Others on this station liked it or its artist.
    case household
    /// The listener has heard this artist through before.
    case playedArtist(artist: String)
    /// Nothing the listener did points at it: something new.
    case new

    /// The smallest share of a score that counts as a reason (about a 1.6× likelier song).
    package static let threshold = 0.5
}
