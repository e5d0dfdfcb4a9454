import Foundation
import Radio
import RadioAPI
import StationLink
import Testing

/// The station's `gain` on a song of a playlist answer becomes the radio's `Track.gain`,
/// which the session hands to the player with the song.
@Suite("Song gain to track")
struct SongGainTrackTests {
    func track(_ json: String) throws -> Track {
        StationClient.track(try JSONDecoder().decode(Song.self, from: Data(json.utf8)))
    }

    @Test("a song's gain is its track's; a song without one, or with one not believed, has none")
    func gainTravels() throws {
        let base = #""sid":"7","title":"T","artist":"A","url":"http://station/media/7.flac","length":200"#
        #expect(try track("{\(base),\"gain\":-6.2}").gain == -6.2)
        #expect(try track("{\(base),\"gain\":0}").gain == 0)
        #expect(try track("{\(base)}").gain == nil)
        #expect(try track("{\(base),\"gain\":\"loud\"}").gain == nil)
        #expect(try track("{\(base),\"gain\":99}").gain == nil)
    }
}
