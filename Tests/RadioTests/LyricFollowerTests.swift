import Adapters
import Companions
import Foundation
import Radio
import RadioAPI
import Store
import TestSupport
import Testing

/// The lyric follower: lines as the snapshots move, and the listener's nudge kept per song
/// in the real database, so the song's next play starts with it.
struct LyricFollowerTests {
    /// A station whose every song has the same lyrics.
    struct LyricStation: RadioService {
        func channels() async throws(ServiceFailure) -> [ChannelInfo] { [] }
        func send(_ report: Report) async throws(ServiceFailure) -> [Track] { [] }
        func lyrics(sid: String, ssid: String) async -> LyricSheet? {
            LyricSheet(parsing: "[00:01.00]a\n[00:02.00]b")
        }
    }

    static func snapshot(_ sid: String, at position: Double) -> RadioSnapshot {
        RadioSnapshot(track: Track(sid: sid, title: "T", artist: "A", url: "file:///x.mp3"), position: position)
    }

    /// The lines heard, once `count` came (or after 15 s, for the caller's comparison to show).
    static func heard(_ lines: Locked<[String]>, count: Int) async throws -> [String] {
        _ = await eventually { lines.withLock({ $0.count }) >= count }
        return lines.withLock { $0 }
    }

    @Test func aNudgeMovesTheLineAtOnceAndIsKeptForTheSongsNextPlay() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-lyric-nudge")
        let database = try MhzDatabase(path: folder.path("mhz.sqlite"))
        let nudges = LyricNudges(database: database, station: "embedded")
        let lines = Locked<[String]>([])
        let first = LyricFollower(service: LyricStation(), nudges: nudges,
                                  lineChanged: { change in lines.withLock { $0.append(change.text) } })
        first.show(Self.snapshot("7", at: 0.6))
        // The lyrics come; at 0.6 s no line has begun.
        first.show(Self.snapshot("7", at: 1.2))
        #expect(try await Self.heard(lines, count: 1) == ["a"])
        // +0.5 s twice: 1.2 s shows what 2.2 s shows.
        #expect(first.nudge(by: 0.5) == 0.5)
        #expect(first.nudge(by: 0.5) == 1.0)
        #expect(lines.withLock { $0 } == ["a", "b"])
        #expect(try database.lyricOffset(station: "embedded", sid: "7") == 1000)
        #expect(try database.lyricOffset(station: "other", sid: "7") == 0)

        // The song again, in a new follower: the kept nudge applies before any key.
        let again = Locked<[String]>([])
        let second = LyricFollower(service: LyricStation(), nudges: nudges,
                                   lineChanged: { change in again.withLock { $0.append(change.text) } })
        second.show(Self.snapshot("7", at: 0.2))
        #expect(try await Self.heard(again, count: 1) == ["a"])
        #expect(second.nudge(by: -1) == 0)
        #expect(try database.lyricOffset(station: "embedded", sid: "7") == 0)
    }
}
