import Radio
import Synchronization
import Testing
@testable import mhz

/// The pump's session when the radio may hand over to a live channel: commands go to the
/// session attached; between two, only a `quit` is kept, and handed to the next at once.
struct SessionRelayTests {
    /// A session that writes down what it is told.
    final class Recorder: RadioControl {
        let commands = Mutex<[RadioCommand]>([])
        func send(_ command: RadioCommand) async { commands.withLock { $0.append(command) } }
        var received: [RadioCommand] { commands.withLock { $0 } }
    }

    @Test func commandsFollowTheSessionAttachedAndAQuitMeanwhileIsHandedOn() async {
        let radio = Recorder(), live = Recorder(), later = Recorder()
        let relay = SessionRelay(radio)
        await relay.send(.skip)
        await relay.send(.liveChannel("1"))
        relay.detach()
        await relay.send(.like)
        #expect(radio.received == [.skip, .liveChannel("1")], "nothing reaches a session once detached")
        await relay.attach(live)
        await relay.send(.toggle)
        #expect(live.received == [.toggle], "no quit was given: the live session starts clean")
        relay.detach()
        await relay.send(.quit)
        await relay.attach(later)
        #expect(later.received == [.quit])
    }
}
