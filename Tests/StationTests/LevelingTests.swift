import MusicLibrary
import RadioAPI
import Testing
@testable import Station

/// The one gain rule the station's answers, transcodes and live channels level by.
struct LevelingTests {
    private let track = Leveling(basis: .track, target: -18)

    @Test("the gain brings the song to the target, in tenths of a dB")
    func toTheTarget() {
        #expect(track.gain(for: Loudness(integrated: -9.04, truePeak: -12)) == -9)
        #expect(track.gain(for: Loudness(integrated: -23, truePeak: -12)) == 5)
        #expect(track.gain(for: Loudness(integrated: -18.04, truePeak: nil)) == 0)
        #expect(Leveling(basis: .track, target: -14).gain(for: Loudness(integrated: -20.26, truePeak: -20)) == 6.3)
    }

    @Test("a song is never raised past -1 dBTP: the true peak caps the gain")
    func cappedByThePeak() {
        // −30 LUFS wants +12 dB, but its peak of −4 dBTP allows only +3.
        #expect(track.gain(for: Loudness(integrated: -30, truePeak: -4)) == 3)
        // A loud song's cut is never limited by its peak.
        #expect(track.gain(for: Loudness(integrated: -6, truePeak: 0.4)) == -12)
        // A peak above the ceiling even when lowered: the lower of the two.
        #expect(track.gain(for: Loudness(integrated: -17, truePeak: 2.5)) == -3.5)
    }

    @Test("nothing is levelled when off, unmeasured, silent or measured absurdly")
    func noGain() {
        #expect(Leveling.off.gain(for: Loudness(integrated: -9, truePeak: -1)) == nil)
        #expect(track.gain(for: nil) == nil)
        #expect(track.gain(for: Loudness(integrated: nil, truePeak: nil)) == nil)
        #expect(track.gain(for: Loudness(integrated: -.infinity, truePeak: nil)) == nil)
        #expect(track.gain(for: Loudness(integrated: .nan, truePeak: nil)) == nil)
        // A row that says −500 LUFS is broken, not quiet: past Song.gains.
        #expect(track.gain(for: Loudness(integrated: -500, truePeak: nil)) == nil)
        #expect(track.gain(for: Loudness(integrated: 1e300, truePeak: nil)) == nil)
        // A peak of NaN caps nothing.
        #expect(track.gain(for: Loudness(integrated: -20, truePeak: .nan)) == 2)
    }

    @Test("by album: the album's loudness where it is known, else the track's own")
    func byAlbum() {
        // Positions 0 and 1 one album (−10 and −20 LUFS, 10 s each), 2 without an album, 3 unmeasured.
        let levels: [Loudness?] = [Loudness(integrated: -10, truePeak: -3), Loudness(integrated: -16, truePeak: -2),
                                   Loudness(integrated: -24, truePeak: -9), nil]
        let table = LoudnessTable(trackCount: 4, albums: { ["a", "a", "", "b"][$0] }, lengths: { _ in 10 },
                                  loudness: { levels[$0] })
        let album = Leveling(basis: .album, target: -18)
        // The album: 10·log10((10^-1 + 10^-1.6) / 2) = −12.03 LUFS, peak −2 → −5.97 dB, both tracks.
        #expect(album.gain(at: 0, in: table) == -6 && album.gain(at: 1, in: table) == -6)
        #expect(track.gain(at: 0, in: table) == -8 && track.gain(at: 1, in: table) == -2)
        #expect(album.gain(at: 2, in: table) == 6 && album.gain(at: 3, in: table) == nil)
        #expect(album.gain(at: 4, in: table) == nil && album.gain(at: -1, in: table) == nil)
        #expect(Leveling.off.gain(at: 0, in: table) == nil)
    }
}
