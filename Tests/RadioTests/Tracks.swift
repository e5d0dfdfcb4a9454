@testable import Radio
import RadioAPI

/// Test tracks: `t(3)` is sid "3", title "Song 3", with a URL naming it.
func t(_ n: Int, liked: Bool = false) -> Track {
    Track(sid: "\(n)", title: "Song \(n)", artist: "Artist \(n)", album: "Album \(n)", length: 30, liked: liked,
          url: "http://station/media/\(n).wav")
}

/// The reports among effects (fetches and feedback alike), in order, with `h` in wire form.
func reports(_ effects: [RadioEffect]) -> [(id: Int, type: String, sid: String?, h: String?, channel: String)] {
    effects.compactMap {
        switch $0 {
        case .fetch(let id, let r), .deliver(let id, let r):
            return (id, r.type.rawValue, r.sid, r.history.map(ReportHistory.wireForm), r.channel)
        default:
            return nil
        }
    }
}

/// The reports sent straight to the station (not kept in the outbox), by type letter.
func fetched(_ effects: [RadioEffect]) -> [String] {
    effects.compactMap { if case .fetch(_, let r) = $0 { return r.type.rawValue }; return nil }
}

/// The reports handed to the outbox, by type letter.
func delivered(_ effects: [RadioEffect]) -> [String] {
    effects.compactMap { if case .deliver(_, let r) = $0 { return r.type.rawValue }; return nil }
}

/// The songs loaded among effects.
func plays(_ effects: [RadioEffect]) -> [String] {
    effects.compactMap { if case .play(let track, _, _) = $0 { return track.sid }; return nil }
}

/// The events emitted among effects.
func events(_ effects: [RadioEffect]) -> [RadioEvent] {
    effects.compactMap { if case .emit(let e) = $0 { return e }; return nil }
}

/// A machine that has started on channel 0 and is playing song 1 with `queued` songs after it.
func playingMachine(queued: [Int] = [2, 3, 4]) -> RadioMachine {
    var m = RadioMachine()
    _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "Personal"), ChannelInfo(id: "1", name: "Ambient")]))
    _ = m.handle(.start(channelID: "0"))
    _ = m.handle(.answered(requestID: 1, tracks: [t(1)] + queued.map { t($0) }))
    _ = m.handle(.playerStarted(m.ticket, duration: 30))
    return m
}

/// The songs that start playing from effects: loaded, or advanced to from the player's queue.
func starts(_ effects: [RadioEffect]) -> [String] {
    effects.compactMap {
        switch $0 {
        case .play(let track, _, _), .advancePlayer(let track, _, _): return track.sid
        default: return nil
        }
    }
}

/// The songs queued in the player among effects.
func queued(_ effects: [RadioEffect]) -> [String] {
    effects.compactMap { if case .queueNext(let track, _, _) = $0 { return track.sid }; return nil }
}

extension RadioMachine {
    /// The ticket of the current song, for feeding player events about it (an impossible
    /// ticket when nothing is current, so such events are ignored as stale ones are).
    var ticket: PlayTicket { currentTicket ?? PlayTicket(-1) }

    /// The token of the retry timer the machine waits for (-1 when it waits for none).
    var retryToken: Int {
        if case .retrying(let timer)? = fetch { return timer.token }
        return -1
    }
}
