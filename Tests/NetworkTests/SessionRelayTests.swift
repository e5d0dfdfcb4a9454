import Radio
import Testing
@testable import mhz

/// The pump's session when the radio may hand over to a live channel: commands go to the
/// session attached; between two, only a `quit` is kept, and handed to the next at once.
struct SessionRelayTests {
    /// A session that writes down what it is told.
    actor Recorder: RadioControl {
        private(set) var received: [RadioCommand] = []
        func send(_ command: RadioCommand) async { received.append(command) }
    }

    @Test func commandsFollowTheSessionAttachedAndAQuitMeanwhileIsHandedOn() async {
        let radio = Recorder(), live = Recorder(), later = Recorder()
        let relay = SessionRelay(radio)
        await relay.send(.skip)
        await relay.send(.liveChannel("1"))
        relay.detach()
        await relay.send(.like)
        #expect(await radio.received == [.skip, .liveChannel("1")], "nothing reaches a session once detached")
        await relay.attach(live)
        await relay.send(.toggle)
        #expect(await live.received == [.toggle], "no quit was given: the live session starts clean")
        relay.detach()
        await relay.send(.quit)
        await relay.attach(later)
        #expect(await later.received == [.quit])
    }
}
