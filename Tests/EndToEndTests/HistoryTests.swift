import Foundation
import TestSupport
import Testing
@testable import mhz

/// The history, kept by a real headless session against the test station: the songs it
/// started, newest first, with how each left, as `mhz ctl history` tells them while it
/// plays, headless stdin's `history` narrates them, and `mhz history` prints them after.
@Suite(.serialized)
struct HistoryTests {
    /// One JSON object of a line.
    private static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @Test func aSessionsSongsAreKeptWithHowTheyLeft() async throws {
        try await ControlSocketTests.Running.with { running in
            let mhz = running.mhz
            // Skip the first song; like, then trash the second; quit on the third.
            let first = try await mhz.waitFor("playing")
            let firstSid = try #require(first.event["sid"])
            let moved = try await mhz.status(after: first.index) { ($0.number("position") ?? 0) >= 1.5 }
            mhz.send("skip")
            let skipped = try await mhz.waitFor("skipped", after: moved.index)
            let second = try await mhz.waitFor("playing", after: skipped.index)
            let secondSid = try #require(second.event["sid"])
            mhz.send("like")
            let liked = try await mhz.waitFor("liked", after: second.index)
            mhz.send("trash")
            let trashed = try await mhz.waitFor("trashed", after: liked.index)
            let third = try await mhz.waitFor("playing", after: trashed.index)
            let thirdSid = try #require(third.event["sid"])

            // ctl history: a line per song, newest first; the one playing reads as quit.
            let ctl = try await running.ctl(["history"])
            #expect(ctl.status == 0, "\(ctl.stderr)")
            let told = try ctl.stdout.map(Self.object)
            #expect(told.map { $0["sid"] as? String } == [thirdSid, secondSid, firstSid])
            #expect(told.map { $0["outcome"] as? String } == ["quit", "trashed", "skipped"])
            #expect(told.map { $0["liked"] as? Bool } == [false, true, false])
            let limited = try await running.ctl(["history", "1"])
            #expect(try limited.stdout.map(Self.object).map { $0["sid"] as? String } == [thirdSid])

            // Headless stdin: one `history` event with the songs.
            mhz.send("history 2")
            let event = try await mhz.waitFor("history", after: third.index)
            let songs = try #require(event.event.fields["songs"] as? [[String: Any]])
            #expect(songs.map { $0["sid"] as? String } == [thirdSid, secondSid])

            // A past song liked by its sid: the report goes to the station with that sid,
            // the song playing is not disturbed, the history shows the heart.
            mhz.send("past like \(firstSid)")
            let likedPast = try await mhz.waitFor("liked", after: event.index) { $0["sid"] == firstSid }
            let report = try await running.station.waitForReport { $0.parameter("type") == "r" && $0.parameter("sid") == firstSid }
            #expect(report.parameter("sid") == firstSid)
            mhz.send("status")
            let status = try await mhz.waitFor("status", after: likedPast.index)
            #expect(status.event["sid"] == thirdSid)

            mhz.send("quit")
            #expect(try await mhz.exit() == 0)

            // After the session: the same songs, each with every field, in RFC 3339.
            let after = try await BuiltMhz.run(["history", "--json", "--data-dir", running.dataDirectory],
                                               environment: running.environment)
            #expect(after.status == 0, "\(after.stderr)")
            let rows = try after.stdout.split(separator: "\n").map { try Self.object(String($0)) }
            #expect(rows.map { $0["sid"] as? String } == [thirdSid, secondSid, firstSid])
            #expect(rows.map { $0["outcome"] as? String } == ["quit", "trashed", "skipped"])
            #expect(rows.map { $0["liked"] as? Bool } == [false, true, true])
            #expect(rows.map { $0["channel"] as? String } == ["0", "0", "0"])
            for row in rows {
                #expect(Set(row.keys) == ["sid", "title", "artist", "album", "length", "channel", "started_at",
                                          "listened", "outcome", "liked"])
                let stamp = try #require(row["started_at"] as? String)
                #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(stamp)")
            }
            #expect((rows[2]["listened"] as? Double ?? 0) >= 1, "the first song was skipped after 1.5 s")
            #expect(rows[0]["title"] as? String == third.event["title"])
            // Each song's length as its `playing` line told it.
            #expect(rows.map { $0["length"] as? Double } == [third, second, first].map { $0.event.number("length") })
            #expect(rows.allSatisfy { ($0["length"] as? Double ?? 0) > 0 }, "\(rows)")
            let stamps = rows.compactMap { $0["started_at"] as? String }
            #expect(stamps == stamps.sorted(by: >))

            let text = try await BuiltMhz.run(["history", "--limit", "2", "--data-dir", running.dataDirectory],
                                              environment: running.environment)
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines[1].contains("trashed ♥ \(second.event["title"] ?? "?")"), "\(text.stdout)")
            #expect(lines[1].contains(" of \(HistoryText.minutes(second.event.number("length") ?? 0))  trashed"), "\(text.stdout)")
            let bad = try await BuiltMhz.run(["history", "--limit", "0", "--data-dir", running.dataDirectory],
                                             environment: running.environment)
            #expect(bad.status == 2)
        }
    }
}
