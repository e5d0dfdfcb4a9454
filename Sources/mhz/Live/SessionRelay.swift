import Radio
import Synchronization

/// What the command pump drives when the radio may become a live channel's listening: the
/// radio's session first, and the live session that takes its place after `live <id>`
/// ended the radio (``RadioEvent/goingLive(_:)``). A session listens to one thing, so the
/// radio is not turned into a broadcast: it ends as at `quit`, and the front end, the pump
/// and the signal trap go on with the `mhz --live` session the composition root opens.
///
/// Between the two, commands have nowhere to go and are dropped, except `quit`: one given
/// at any time after the radio ended (the radio ignores it by then) is kept, and the live
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

    /// The radio ended for a live channel: nothing takes commands until ``attach(_:)``.
    func detach() {
        held.withLock { $0.session = nil }
    }

    /// Commands go to `session` from now on; it is told to quit at once when a `quit` came
    /// meanwhile.
    func attach(_ session: any RadioControl) async {
        let quit = held.withLock { held -> Bool in
            held.session = session
            return held.quitAsked
        }
        if quit { await session.send(.quit) }
    }
}
