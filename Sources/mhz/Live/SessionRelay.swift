import Radio
import Synchronization

/// What the command pump drives when the radio may become a live channel's listening and
/// back: the radio's session first, the live session that takes its place after `live
/// <id>` ended the radio (``RadioEvent/goingLive(_:)``), and a new radio session after
/// `radio` ended that (``RadioEvent/goingRadio(_:)``). A session listens to one thing, so
/// neither is turned into the other: one ends as at `quit`, and the front end, the pump and
/// the signal trap go on with the session the composition root opens next.
///
/// Between two sessions, commands have nowhere to go and are dropped, except `quit`: one
/// given at any time after a session ended (it ignores it by then) is kept, and the next
/// session is handed it as it comes, so a listener who quit during the handover quits.
final class SessionRelay: RadioControl {
    private struct Held {
        var session: (any RadioControl)?
        var quitAsked = false
    }

    private let held: Mutex<Held>

    /// A relay to `session`, or to nothing yet.
    init(_ session: (any RadioControl)?) {
        held = Mutex(Held(session: session))
    }

    /// Hands `command` to the session now listened to.
    func send(_ command: RadioCommand) async {
        let session = held.withLock { held -> (any RadioControl)? in
            if command == .quit { held.quitAsked = true }
            return held.session
        }
        await session?.send(command)
    }

    /// A session ended for the next: nothing takes commands until ``attach(_:)``.
    func detach() {
        held.withLock { $0.session = nil }
    }

    /// Commands go to `session` from now on; it is told to quit at once when a `quit` came
    /// meanwhile, which the answer says.
    @discardableResult
    func attach(_ session: any RadioControl) async -> Bool {
        let quit = held.withLock { held -> Bool in
            held.session = session
            return held.quitAsked
        }
        if quit { await session.send(.quit) }
        return quit
    }
}
