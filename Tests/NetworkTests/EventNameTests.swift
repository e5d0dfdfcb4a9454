import Downloads
import Foundation
import RadioAPI
import Store
import Testing
@testable import Companions
@testable import Radio
@testable import mhz

/// The JSON event lines' names are one table, `EventName`: every line and the hook's
/// argument take their name from it, and the desktop guide lists exactly its names.
struct EventNameTests {
    /// The guide to mhz in the desktop and in scripts, `docs/guide/desktop.md` beside the
    /// package, which documents headless stdin's commands and the event lines.
    static let desktopGuide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/guide/desktop.md")

    /// The names the desktop guide's sentence lists, in its order.
    static func listed() throws -> [String] {
        let text = try String(contentsOf: desktopGuide, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let start = try #require(text.range(of: "Each line names its event in `event`, one of "),
                                 "the desktop guide lists the event lines' names")
        let sentence = text[start.upperBound...].prefix { $0 != "." }
        return sentence.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The `event` field of a line.
    private func name(_ line: String) throws -> String? {
        try (JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
    }

    @Test func theDesktopGuideListsEveryNameOnceAsTheTableHasThem() throws {
        let names = EventName.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count)
        #expect(try Self.listed() == names)
    }

    @Test func everyLineAndTheHookSayTheNameTheTableGivesIt() throws {
        let track = Track(sid: "7", title: "Song 7", artist: "Artist 7", album: "Album 7", length: 30, liked: false,
                          url: "http://station/media/7.mp3")
        let channel = ChannelInfo(id: "3", name: "Folk", live: true)
        let tally = LiveTally(sid: "7", type: .skip, onAir: true, votes: 1, listeners: 2, ending: false)
        let events: [RadioEvent] = [
            .channel(channel), .playing(track, channel: channel), .livePlaying(track, channel: channel, behind: 2),
            .paused(track), .paused(nil), .resumed(track), .resumed(nil), .ended(track), .skipped(track), .liked(track),
            .unliked(track), .trashed(track), .voted(track, type: .skip, tally), .reconnecting(track, attempt: 1, of: 4), .reconnected(track),
            .goingLive(channel), .goingRadio(nil), .source(.downloads), .status(RadioSnapshot()),
            .error(.nothingPlaying), .sleep(seconds: 60), .fading(volume: 40), .history([]),
        ]
        for event in events {
            let table = EventName(event)
            #expect(try name(EventJSON.line(event)) == table.rawValue, "\(event)")
            #expect(RadioObservers.hookName(event) == (table == .status || table == .history ? nil : table.rawValue))
        }
        let lyric = EventJSON.lyric(LyricTracker.Change(sid: "7", index: 0, time: 1, text: "la"))
        let record = DownloadRecord(url: "http://station/media/7.mp3", title: "Song 7", artist: "Artist 7", sid: "7",
                                    path: "/tmp/Song 7.mp3")
        let download = DownloadJSON.line(DownloadTask(record: record, state: .completed))
        #expect(try [name(lyric), name(download), name(EventJSON.error("no"))] == ["lyric", "download", "error"])
        // Every name of the table is some line's.
        let named = Set(events.map(EventName.init)).union([.lyric, .download])
        #expect(named == Set(EventName.allCases))
    }
}
