import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// A live channel on the now-playing screen: LIVE at the edge, else how far behind, and no
/// queue (the broadcast chooses).
@Suite struct LiveLabelTests {
    static func live(behind: Double) -> RadioSnapshot {
        var snapshot = Fixtures.ascii
        snapshot.live = LiveStatus(behind: behind)
        return snapshot
    }

    @Test func atTheEdgeTheHeaderSaysLive() {
        let lines = NowPlayingView.render(Self.live(behind: 1.2), width: 40, height: 12)
        #expect(lines[0] == " Jazz FM                 playing · LIVE ")
        #expect(lines[7] == "  vol 80%                               ")
    }

    @Test func behindTheEdgeTheHeaderSaysHowFar() {
        let lines = NowPlayingView.render(Self.live(behind: 130.6), width: 40, height: 12)
        #expect(lines[0] == " Jazz FM               playing · −02:10 ")
    }

    @Test func theVoteStandsOnTheVolumeLine() {
        var snapshot = Self.live(behind: 0)
        snapshot.live?.vote = LiveTally(sid: "1", type: .skip, onAir: true, votes: 1, listeners: 3, ending: false)
        #expect(NowPlayingView.render(snapshot, width: 40, height: 12)[7] == "  vol 80%  ·  skip: 1 of 3 voted        ")
        snapshot.live?.vote = LiveTally(sid: "1", type: .skip, onAir: true, votes: 2, listeners: 3, ending: true)
        #expect(NowPlayingView.render(snapshot, width: 40, height: 12)[7] == "  vol 80%  ·  ending: 2 of 3 voted      ")
        snapshot.live?.vote = LiveTally(sid: "1", type: .skip, onAir: false, votes: 0, listeners: 0, ending: false)
        #expect(NowPlayingView.voteText(snapshot.live!.vote!) == "this song has left the air: no vote")
        snapshot.live?.vote = LiveTally(sid: "1", type: .skip, onAir: false, votes: 0, listeners: 0, ending: false, ended: true)
        #expect(NowPlayingView.render(snapshot, width: 50, height: 12)[7]
            == "  vol 80%  ·  over on the air: it ends here in se…")
    }

    @Test func liveText() {
        #expect(NowPlayingView.liveText(LiveStatus(behind: 0)) == "LIVE")
        #expect(NowPlayingView.liveText(LiveStatus(behind: 2.9)) == "LIVE")
        #expect(NowPlayingView.liveText(LiveStatus(behind: 3)) == "−00:03")
        #expect(NowPlayingView.liveText(LiveStatus(behind: 3725)) == "−1:02:05")
    }

    @Test func theRadiosOwnSongsHaveNoLabel() {
        let lines = NowPlayingView.render(Fixtures.ascii, width: 40, height: 12)
        #expect(lines[0] == " Jazz FM                        playing ")
        #expect(lines[7] == "  vol 80%  ·  3 queued                  ")
    }
}
