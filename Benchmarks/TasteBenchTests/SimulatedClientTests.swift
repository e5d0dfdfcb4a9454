import Testing
@testable import TasteBench

/// The simulated client sends what mhz's radio sends, in mhz's order, and its queue follows
/// the answers as mhz's does.
@Suite struct SimulatedClientTests {
    /// A station that answers each report with the next list of a script (nothing for `e`),
    /// recording every report.
    final class ScriptedStation: TasteStation {
        var reports: [ClientReport] = []
        var lists: [[ServedSong]]

        init(_ lists: [[String]]) {
            self.lists = lists.map { $0.map { ServedSong(sid: $0, title: $0, artist: "X", length: 10) } }
        }

        func people(_ report: ClientReport) throws(TasteError) -> [ServedSong] {
            reports.append(report)
            if report.type == "e" || lists.isEmpty { return [] }
            return lists.removeFirst()
        }

        var summary: [String] { reports.map { "\($0.type) \($0.sid) \($0.history ?? "-")" } }
    }

    @Test func reportsFollowMhzRadio() throws {
        let station = ScriptedStation([["a", "b", "c", "d", "e"], ["f", "g", "h", "i", "j"], ["k", "l", "m", "n", "o"],
                                       ["p", "q", "r", "s", "t"]])
        var client = SimulatedClient(station: station)
        #expect(try client.start().sid == "a")
        #expect(try client.listen(.neutral).sid == "b")
        // A heart's list replaces the queue; the song then ends and the list's first plays.
        #expect(try client.listen(.loved).sid == "f")
        // A skip starts the next queued song at once; its answer replaces the rest.
        #expect(try client.listen(.skipped).sid == "g")
        #expect(client.queue.map(\.sid) == ["k", "l", "m", "n", "o"])
        #expect(try client.listen(.trashed).sid == "k")
        #expect(station.summary == [
            "n  ",
            "e a -",
            "r b -",
            "e b -",
            "s f |a:e|b:r|b:e|f:s",
            "b g |a:e|b:r|b:e|f:s|g:b",
        ])
        #expect(client.firstList.map(\.sid) == ["a", "b", "c", "d", "e"])
        #expect(client.songsAnswered == 20 && client.songsWithReason == 0)
    }

    @Test func fewQueuedFetchesMoreAndAHeartTakenBackBeforeASkip() throws {
        let station = ScriptedStation([["a", "b"], ["c", "b", "d"], ["e", "f", "g"], ["h", "i", "j"]])
        var client = SimulatedClient(station: station)
        #expect(try client.start().sid == "a")
        // Fewer than 2 queued behind the first song: `p` about it, without the song queued already.
        #expect(client.queue.map(\.sid) == ["b", "c", "d"])
        #expect(try client.listen(.loved).sid == "e")
        // A song that comes again with its heart is not rated twice; a listener who now
        // skips it takes the heart back first.
        station.lists.insert([ServedSong(sid: "a", title: "a", artist: "X", length: 10, liked: true)], at: 0)
        _ = try client.listen(.neutral)
        #expect(client.queue.map(\.sid) == ["g", "a"])
        _ = try client.listen(.neutral)
        #expect(try client.listen(.neutral).sid == "a")
        #expect(client.current?.liked == true)
        #expect(try client.listen(.skipped).sid == "h")
        #expect(station.summary == [
            "n  ", "p a ", "r a -", "e a -", "e e -", "p f |a:r|a:e|e:e", "e f -", "p g |a:r|a:e|e:e|f:e", "e g -",
            "u a -", "s a |a:r|a:e|e:e|f:e|g:e|a:u|a:s", "p h |a:r|a:e|e:e|f:e|g:e|a:u|a:s",
        ])
    }

    @Test func answersDecodeAsTheStationWritesThem() throws {
        let body = Array(#"{"r":0,"version_max":100,"song":[{"aid":"1","artist":"A","length":3,"like":"1","sid":"123","title":"T","reason":"liked artist"},{"artist":"B","length":"4","like":false,"sid":456,"title":"U"}]}"#.utf8)
        #expect(try PeopleAnswer.songs(body) == [
            ServedSong(sid: "123", title: "T", artist: "A", length: 3, liked: true, reason: "liked artist"),
            ServedSong(sid: "456", title: "U", artist: "B", length: 4, liked: false),
        ])
        #expect(try PeopleAnswer.songs(Array(#"{"r":0}"#.utf8)).isEmpty)
        #expect(throws: TasteError.self) { try PeopleAnswer.songs(Array(#"{"r":1,"err":"expired"}"#.utf8)) }
        #expect(throws: TasteError.self) { try PeopleAnswer.songs(Array("<html>".utf8)) }
    }
}
