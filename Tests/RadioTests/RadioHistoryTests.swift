import Adapters
import Companions
import Foundation
import Radio
import Store
import Testing

/// The history through mhz's real database: a song began, left and read back is the song
/// that began, with what only the history knows, and its JSON line says so field by field.
struct RadioHistoryTests {
    private let start = Date(timeIntervalSince1970: 1_795_776_723)

    /// A song with every field the history keeps set.
    private var song: Track {
        Track(sid: "41", title: "夜に駆ける", artist: "YOASOBI", album: "THE BOOK", year: "2019", kbps: 192,
              length: 220.5, liked: false, url: "http://station/media/41.mp3", picture: "http://station/covers/41.jpg",
              sha256: "c0ffee", reason: "because")
    }

    @Test func aSongThatBeganAndLeftReadsBackAsItsEntryAndJSONLine() throws {
        let history = RadioHistory(database: try MhzDatabase(), station: "embedded")
        let key = try history.began(song, channel: "-3", at: start)
        try history.left(key: key, listened: 130.4, outcome: .ended, liked: true)
        let entries = try history.recent(limit: nil)
        let kept = Track(sid: "41", title: "夜に駆ける", artist: "YOASOBI", album: "THE BOOK", year: "2019",
                         length: 220.5, liked: true, url: "http://station/media/41.mp3", picture: "http://station/covers/41.jpg",
                         sha256: "c0ffee", channel: "-3")
        #expect(entries == [ListenEntry(track: kept, channel: "-3", startedAt: start, listened: 130.4, outcome: .ended)])
        #expect(EventJSON.song(try #require(entries.first)) == """
            {"album":"THE BOOK","artist":"YOASOBI","channel":"-3","length":220.5,"liked":true,"listened":130,\
            "outcome":"ended","sid":"41","started_at":"2026-11-27T10:52:03Z","title":"夜に駆ける"}
            """)
        // Another station's history reads the same row as another station's song.
        #expect(try RadioHistory(database: history.database, station: "http://other/").recent(limit: 1)
                == [ListenEntry(track: kept, channel: "-3", startedAt: start, listened: 130.4, outcome: .ended,
                                otherStation: true)])
    }
}
