import Testing
@testable import Radio

/// `mute`, on the radio and on a live channel alike: the volume goes to 0 and back to
/// where it was; a volume set meanwhile ends the mute.
struct MuteTests {
    @Test func theSwitchRemembersTheLevelItLeftAndAVolumeSetEndsIt() {
        var mute = MuteSwitch()
        #expect(mute.toggle(volume: 70) == 0)
        #expect(mute.state == .muted(restoring: 70))
        #expect(mute.toggle(volume: 0) == 70)
        #expect(mute.state == .audible)
        #expect(mute.toggle(volume: 40) == 0)
        mute.volumeSet()
        #expect(mute.state == .audible, "a volume asked for by other means ends the mute")
        #expect(mute.toggle(volume: 0) == 0)
        #expect(mute.state == .muted(restoring: MuteSwitch.levelAfterSilence), "muted at 0: it comes back at half")
        #expect(mute.toggle(volume: 0) == 50)
        #expect(mute.toggle(volume: 250) == 0)
        #expect(mute.toggle(volume: 0) == 100, "a level past 100 comes back clamped")
    }

    @Test func theRadioMutesAndComesBackToTheVolumeTheListenerHad() {
        var m = RadioMachine(volume: 80)
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.playerVolume(65))
        #expect(m.handle(.command(.mute)) == [.setVolume(0)])
        _ = m.handle(.playerVolume(0))
        #expect(m.handle(.command(.status)).contains { if case .emit(.status(let s)) = $0 { return s.volume == 0 }; return false },
                "status (and MPRIS' Volume, made from the same snapshot) reads 0 while muted")
        #expect(m.handle(.command(.mute)) == [.setVolume(65)])
        _ = m.handle(.playerVolume(65))
        #expect(m.handle(.command(.mute)) == [.setVolume(0)])
        #expect(m.handle(.command(.volume(30))) == [.setVolume(30)])
        _ = m.handle(.playerVolume(30))
        #expect(m.handle(.command(.mute)) == [.setVolume(0)], "the volume set ended the mute: mute mutes again")
        #expect(m.handle(.command(.mute)) == [.setVolume(30)])
    }

    @Test(.timeLimit(.minutes(1))) func aLiveChannelMutesTheSameWay() async {
        let player = FakePlayer()
        let session = LiveSession(channel: ChannelInfo(id: "4", name: "Jazz", live: true),
                                  station: LiveSessionTests.FakeLiveStation(), player: player, volume: 90,
                                  retryDelay: .milliseconds(10))
        await session.send(.mute)
        await session.send(.mute)
        await session.send(.volume(20))
        await session.send(.mute)
        #expect(player.commands == ["volume 0", "volume 90", "volume 20", "volume 0"])
    }
}
