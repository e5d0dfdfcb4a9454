import Foundation
import RadioAPI
import Testing
@testable import Radio

/// `past like|unlike|trash|download <sid>` (the history view's keys): a report about a
/// song that no longer plays goes through the outbox about its sid and its channel, and the
/// song playing, the queue and the list under way stay as they were.
struct PastSongMachineTests {
    /// A song of the history: sid 9 played on channel 1 earlier.
    private func entry(_ sid: String = "9", channel: String = "1", otherStation: Bool = false) -> ListenEntry {
        ListenEntry(track: Track(sid: sid, title: "Song \(sid)", artist: "Artist \(sid)", album: "Album \(sid)",
                                 year: "1999", liked: false, url: "http://station/media/\(sid).wav"),
                    channel: channel, startedAt: Date(timeIntervalSince1970: 1000), listened: 12, outcome: .skipped,
                    otherStation: otherStation)
    }

    /// Song 1 plays with 2, 3, 4 queued; the history holds `entries`.
    private func machine(_ entries: [ListenEntry]) -> RadioMachine {
        var m = playingMachine()
        #expect(m.handle(.historyChanged(entries)).isEmpty)
        return m
    }

    @Test func aLikeOfAPastSongIsReportedAboutItsSidAndChannelAndChangesNothingElse() {
        var m = machine([entry()])
        let before = m.snapshot
        let like = m.handle(.command(.pastSong(.like, sid: "9")))
        var liked = entry().track
        liked.liked = true
        #expect(like == [
            .deliver(requestID: 2, Report(type: .rate, channel: "1", sid: "9", playedTime: 0)),
            .markListen(sid: "9", liked: true),
            .emit(.liked(liked)),
        ])
        #expect(m.snapshot == before, "the song playing, its heart, the queue: all as they were")
        // The station answers the like with a list (web stations do): the queue stays.
        #expect(m.handle(.answered(requestID: 2, tracks: [t(7), t(8)])).isEmpty)
        #expect(m.queue.map(\.sid) == ["2", "3", "4"])
        let unlike = m.handle(.command(.pastSong(.unlike, sid: "9")))
        #expect(reports(unlike).map { "\($0.type) \($0.sid ?? "-") \($0.channel)" } == ["u 9 1"])
        #expect(unlike.contains(.markListen(sid: "9", liked: false)))
    }

    @Test func aTrashedPastSongLeavesTheQueueAndItsListIsNotTaken() {
        var m = machine([entry("3", channel: "0")])
        let trash = m.handle(.command(.pastSong(.trash, sid: "3")))
        #expect(trash == [
            .deliver(requestID: 2, Report(type: .ban, channel: "0", sid: "3", history: [], playedTime: 0)),
            .rememberTrashed(sid: "3"),
        ], "song 2 is still the one queued in the player: nothing to change there")
        #expect(m.queue.map(\.sid) == ["2", "4"])
        #expect(m.current?.sid == "1")
        #expect(m.listRequest == nil, "a trash of a past song is no list fetch")
        #expect(m.handle(.answered(requestID: 2, tracks: [t(3), t(7)])).isEmpty)
        #expect(m.queue.map(\.sid) == ["2", "4"])
        // Song 3 is never played again: a later list that offers it drops it.
        _ = m.handle(.command(.skip))
        _ = m.handle(.answered(requestID: 3, tracks: [t(3), t(8)]))
        #expect(m.queue.map(\.sid) == ["8"])
    }

    @Test func aPastSongIsDownloadedFromWhatTheHistoryKept() {
        var m = machine([entry()])
        #expect(m.handle(.command(.pastSong(.download, sid: "9"))) == [.download(entry().track, channel: "1")])
    }

    @Test func theSongPlayingIsActedOnAsTheCommandOfTheSameName() {
        var a = machine([entry("1", channel: "0")])
        var b = machine([entry("1", channel: "0")])
        #expect(a.handle(.command(.pastSong(.trash, sid: "1"))) == b.handle(.command(.trash)))
        #expect(a.snapshot == b.snapshot)
    }

    @Test func aSongNotInTheHistoryOrOfAnotherStationIsRefused() {
        var m = machine([entry("9", otherStation: true)])
        #expect(m.handle(.command(.pastSong(.like, sid: "9"))) == [.emit(.error(.notInHistory("9")))])
        #expect(m.handle(.command(.pastSong(.trash, sid: "55"))) == [.emit(.error(.notInHistory("55")))])
        #expect(m.queue.map(\.sid) == ["2", "3", "4"])
    }

    @Test func theCommandLineReadsBack() throws {
        let command = RadioCommand.pastSong(.download, sid: "41")
        #expect(command.line == "past download 41")
        #expect(try RadioCommand.parse("PAST Like 41") == .pastSong(.like, sid: "41"))
        #expect(throws: CommandParseError.invalidArgument(word: "past", argument: "love")) {
            try RadioCommand.parse("past love 41")
        }
        #expect(throws: CommandParseError.missingArgument(word: "past")) { try RadioCommand.parse("past trash") }
    }
}
