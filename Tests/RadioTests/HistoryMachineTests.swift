import RadioAPI
import Testing
@testable import Radio

/// The history as the machine keeps it: a row begins when a song sounds and ends, once,
/// when it leaves, with how it left, how long it was listened to and whether it was liked.
struct HistoryMachineTests {
    private func listens(_ effects: [RadioEffect]) -> [String] {
        effects.compactMap {
            switch $0 {
            case .beginListen(let id, let track, let channel): "begin \(id) \(track.sid) on \(channel)"
            case .endListen(let id, let listened, let outcome, let liked):
                "end \(id) \(outcome.rawValue) \(Int(listened))s\(liked ? " liked" : "")"
            default: nil
            }
        }
    }

    @Test func eachSongIsKeptFromItsStartToHowItLeft() {
        var m = RadioMachine()
        _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "Personal"), ChannelInfo(id: "1", name: "Ambient")]))
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.answered(requestID: 1, tracks: [t(1), t(2), t(3), t(4)]))
        // The row begins when the song sounds, before the `playing` event.
        let started = m.handle(.playerStarted(m.ticket, duration: 30))
        #expect(listens(started) == ["begin 1 1 on 0"])
        #expect(started.firstIndex { if case .beginListen = $0 { true } else { false } }!
                < started.firstIndex { if case .emit(.playing) = $0 { true } else { false } }!)
        _ = m.handle(.playerProgress(m.ticket, 4))
        _ = m.handle(.command(.like))
        #expect(listens(m.handle(.command(.skip))) == ["end 1 skipped 4s liked"])

        // Song 2 plays to its end; song 3 is unliked after a like, then trashed.
        #expect(listens(m.handle(.playerStarted(m.ticket, duration: 30))) == ["begin 2 2 on 0"])
        _ = m.handle(.playerProgress(m.ticket, 30))
        let ended = m.handle(.playerFinished(m.ticket, .eof))
        #expect(listens(ended) == ["end 2 ended 30s"])
        #expect(listens(m.handle(.playerStarted(m.ticket, duration: 30))) == ["begin 3 3 on 0"])
        _ = m.handle(.command(.like))
        _ = m.handle(.command(.unlike))
        _ = m.handle(.playerProgress(m.ticket, 2))
        #expect(listens(m.handle(.command(.trash))) == ["end 3 trashed 2s"])

        // A channel switch: song 4 plays on until the new list replaces it, then it left as
        // skipped when the new channel's first song sounds.
        #expect(listens(m.handle(.playerStarted(m.ticket, duration: 30))) == ["begin 4 4 on 0"])
        _ = m.handle(.playerProgress(m.ticket, 6))
        let switching = m.handle(.command(.channel("1")))
        #expect(listens(switching).isEmpty)
        let request = reports(switching).last!.id
        _ = m.handle(.answered(requestID: request, tracks: [t(10), t(11)]))
        #expect(listens(m.handle(.playerStarted(m.ticket, duration: 30))) == ["end 4 skipped 6s", "begin 5 10 on 1"])

        // Quit: the song playing leaves as quit; nothing more after.
        _ = m.handle(.playerProgress(m.ticket, 3))
        #expect(listens(m.handle(.command(.quit))) == ["end 5 quit 3s"])
    }

    @Test func aSongLoadedAgainAfterItsOutputFailedKeepsItsRow() {
        var m = playingMachine()
        _ = m.handle(.playerProgress(m.ticket, 5))
        let failed = m.handle(.playerFinished(m.ticket, .failed(.unavailable("no device"))))
        #expect(listens(failed).isEmpty, "the song is held, not gone")
        _ = m.handle(.command(.resume))
        #expect(listens(m.handle(.playerStarted(m.ticket, duration: 30))).isEmpty)
        _ = m.handle(.playerProgress(m.ticket, 9))
        #expect(listens(m.handle(.command(.skip))) == ["end 1 skipped 9s"])
    }

    @Test func historyAsksTheSessionForTheRows() {
        var m = playingMachine()
        #expect(m.handle(.command(.history(limit: 5))) == [.listHistory(limit: 5)])
        #expect(m.handle(.command(.history(limit: nil))) == [.listHistory(limit: nil)])
        // What the session and the control socket then tell: the count given, else the default.
        #expect(RadioCommand.historyCount(5) == 5)
        #expect(RadioCommand.historyCount(nil) == RadioCommand.defaultHistoryLimit && RadioCommand.defaultHistoryLimit == 20)
    }
}
