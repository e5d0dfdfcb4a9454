import Foundation
import Store
import Testing
@testable import mhz

/// A song saved by an mhz that served its embedded station over HTTP moves to the song's
/// file on the first run that answers the station in-process (the restart itself is
/// `HeadlessRadioTests.aRestartResumesTheSongWithTheEmbeddedStation`).
struct EmbeddedStationBaseTests {
    func position(_ url: String, sid: String = "123456789",
                  savedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> PlaybackPosition {
        PlaybackPosition(sid: sid, channel: "0", position: 42, duration: 180, url: url, title: "T", savedAt: savedAt)
    }

    let file = URL(fileURLWithPath: "/music/Artist/Album/01 Song.mp3")

    @Test func theLastPositionMovesFromTheOldHTTPRootToTheSongsFile() throws {
        let database = try MhzDatabase()
        try database.setSetting(EmbeddedStationBase.settingKey, "http://127.0.0.1:40001/")
        let saved = position("http://127.0.0.1:40001/media/123456789.mp3")
        try database.savePosition(saved)
        var asked: [String] = []
        let moved = try EmbeddedStationBase.adopt(store: database) { sid in asked.append(sid); return file }
        #expect(asked == ["123456789"])
        #expect(moved == file.absoluteString)
        var expected = saved
        expected.url = file.absoluteString
        #expect(try database.lastPosition() == expected, "only the URL changed, saved_at included")
        #expect(try database.setting(EmbeddedStationBase.settingKey) == nil, "the old root is forgotten")
        // A second run: nothing recorded, nothing to move.
        #expect(try EmbeddedStationBase.adopt(store: database) { _ in file } == nil)
        #expect(try database.lastPosition() == expected)
    }

    @Test func aPositionSavedAgainstAnotherServerOrASongTheLibraryLostIsLeftAlone() throws {
        let database = try MhzDatabase()
        try database.setSetting(EmbeddedStationBase.settingKey, "http://127.0.0.1:40001")
        let remote = position("https://mr1.doubanio.com/abc/view/song/small/p1.mp4")
        try database.savePosition(remote)
        #expect(try EmbeddedStationBase.adopt(store: database) { _ in file } == nil)
        #expect(try database.lastPosition() == remote)

        try database.setSetting(EmbeddedStationBase.settingKey, "http://127.0.0.1:40001")
        let gone = position("http://127.0.0.1:40001/media/555.mp3", sid: "555", savedAt: Date(timeIntervalSince1970: 1_900_000_000))
        try database.savePosition(gone)
        #expect(try EmbeddedStationBase.adopt(store: database) { _ in nil } == nil)
        #expect(try database.lastPosition() == gone)
    }

    @Test func theSongIDNeedsTheWholeRootAndAMediaFileName() {
        #expect(EmbeddedStationBase.songID("http://127.0.0.1:4000/media/1.mp3", under: "http://127.0.0.1:4000") == "1")
        // Port 40001 is not port 4000.
        #expect(EmbeddedStationBase.songID("http://127.0.0.1:40001/media/1.mp3", under: "http://127.0.0.1:4000") == nil)
        #expect(EmbeddedStationBase.songID("http://127.0.0.1:4000/cover/1.jpg", under: "http://127.0.0.1:4000") == nil)
        #expect(EmbeddedStationBase.songID("http://127.0.0.1:4000/media/a/1.mp3", under: "http://127.0.0.1:4000") == nil)
        #expect(EmbeddedStationBase.songID("http://127.0.0.1:4000/media/.mp3", under: "http://127.0.0.1:4000") == nil)
    }
}
