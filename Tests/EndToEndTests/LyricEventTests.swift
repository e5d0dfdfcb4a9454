import Foundation
import Store
import Testing
import TestSupport

/// Lyrics end to end: the built `mhz`, headless, over its embedded station, whose library
/// holds a song with a sidecar `.lrc` and one with LRC embedded by ffmpeg
/// (`-metadata lyrics=`); each line is an `{"event":"lyric",…}` as it is reached, in order.
@Suite("Lyric events")
struct LyricEventTests {
    /// The lyric events of `sid` after `index`, once `count` of them came.
    static func lyrics(of mhz: BuiltMhz, sid: String, after index: Int, count: Int) async throws
        -> [(time: Double, text: String)] {
        try await mhz.waitFor("lyric", after: index, timeout: 30) { _ in
            mhz.events.dropFirst(index).filter { $0.name == "lyric" && $0["sid"] == sid }.count >= count
        }
        return mhz.events.dropFirst(index).filter { $0.name == "lyric" && $0["sid"] == sid }
            .map { ($0.number("time") ?? -1, $0["text"] ?? "") }
    }

    @Test("headless mhz tells each lyric line of a sidecar .lrc and of embedded lyrics as it is reached, in order, and keeps a song's nudge")
    func sidecarAndEmbedded() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-e2e-lyrics")
        let library = home.path("music")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try await offPool {
            try MediaFactory.tone(at: library.appendingPathComponent("side.mp3"), seconds: 5, tags: ["title": "Side"])
            try Data("[ti:Side]\n[offset:+250]\n[00:00.75]one\n[00:01.75][00:03.25]two 二\n".utf8)
                .write(to: library.appendingPathComponent("side.lrc"))
            try MediaFactory.tone(at: library.appendingPathComponent("inside.flac"), seconds: 5, frequency: 660,
                                  tags: ["title": "Inside", "lyrics": "[00:00.40]<00:00.40>word <00:00.90>tags\n[00:02.00]last"])
        }
        let arguments = ["--headless", "--audio-output", "null", "--data-dir", home.path("data").path,
                         "--library", library.path]
        let mhz = try BuiltMhz(arguments, environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
        let expected: [String: [(Double, String)]] = [
            "Side": [(0.5, "one"), (1.5, "two 二"), (3, "two 二")],
            "Inside": [(0.4, "word tags"), (2, "last")],
        ]
        var heard: Set<String> = []
        var sideSID = ""
        var from = 0
        for _ in 0..<6 where heard.count < 2 {
            let playing = try await mhz.waitFor("playing", after: from, timeout: 60)
            let title = try #require(playing.event["title"]), sid = try #require(playing.event["sid"])
            let lines = try #require(expected[title], "\(title)")
            if !heard.contains(title) {
                let got = try await Self.lyrics(of: mhz, sid: sid, after: playing.index, count: lines.count)
                #expect(got.map(\.time) == lines.map(\.0), "\(title): \(got)")
                #expect(got.map(\.text) == lines.map(\.1), "\(title): \(got)")
                heard.insert(title)
                // The nudge keys' commands, headless: kept for this song.
                if title == "Side" {
                    sideSID = sid
                    mhz.send("lyrics-earlier")
                    mhz.send("lyrics-earlier")
                    mhz.send("lyrics-later")
                }
            }
            from = playing.index + 1
            mhz.send("skip")
        }
        #expect(heard == ["Side", "Inside"])
        mhz.send("quit")
        #expect(try await mhz.exit() == 0)
        #expect(!mhz.lines.contains { $0.contains("\"error\"") }, "\(mhz.lines)")
        let database = try MhzDatabase(path: home.path("data/mhz.sqlite"))
        #expect(try database.lyricOffset(station: "embedded", sid: sideSID) == 500)
    }
}
