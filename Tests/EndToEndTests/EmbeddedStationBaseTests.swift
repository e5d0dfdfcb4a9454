import Foundation
import Store
import Testing
@testable import mhz

/// The saved song follows the embedded station to its new port (the restart itself is
/// `HeadlessRadioTests.aRestartResumesTheSongWithTheEmbeddedStation`).
struct EmbeddedStationBaseTests {
    func position(_ url: String, sid: String = "123456789",
                  savedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> PlaybackPosition {
        PlaybackPosition(sid: sid, channel: "0", position: 42, duration: 180, url: url, title: "T", savedAt: savedAt)
    }

    @Test func theLastPositionMovesFromTheOldPortToTheNewOne() throws {
        let database = try MhzDatabase()
        let first = URL(string: "http://127.0.0.1:40001")!
        #expect(try EmbeddedStationBase.adopt(first, store: database) == nil, "nothing saved yet")
        #expect(try database.setting(EmbeddedStationBase.settingKey) == "http://127.0.0.1:40001")
        let saved = position("http://127.0.0.1:40001/media/123456789.mp3")
        try database.savePosition(saved)

        let moved = try EmbeddedStationBase.adopt(URL(string: "http://127.0.0.1:40002/")!, store: database)
        #expect(moved == "http://127.0.0.1:40002/media/123456789.mp3")
        var expected = saved
        expected.url = "http://127.0.0.1:40002/media/123456789.mp3"
        #expect(try database.lastPosition() == expected, "only the URL changed, saved_at included")
        #expect(try database.setting(EmbeddedStationBase.settingKey) == "http://127.0.0.1:40002")
        // The same port again: nothing to move.
        #expect(try EmbeddedStationBase.adopt(URL(string: "http://127.0.0.1:40002")!, store: database) == nil)
    }

    @Test func aPositionSavedAgainstAnotherServerIsLeftAlone() throws {
        let database = try MhzDatabase()
        try EmbeddedStationBase.adopt(URL(string: "http://127.0.0.1:40001")!, store: database)
        let remote = position("https://mr1.doubanio.com/abc/view/song/small/p1.mp4")
        try database.savePosition(remote)
        #expect(try EmbeddedStationBase.adopt(URL(string: "http://127.0.0.1:40002")!, store: database) == nil)
        #expect(try database.lastPosition() == remote)
    }

    @Test func rebaseNeedsTheWholeRoot() {
        #expect(EmbeddedStationBase.rebase("http://127.0.0.1:4000/media/1.mp3", from: "http://127.0.0.1:4000",
                                           to: "http://127.0.0.1:5000") == "http://127.0.0.1:5000/media/1.mp3")
        // Port 40001 is not port 4000.
        #expect(EmbeddedStationBase.rebase("http://127.0.0.1:40001/media/1.mp3", from: "http://127.0.0.1:4000",
                                           to: "http://127.0.0.1:5000") == nil)
    }
}
