import RadioAPI

/// The history: every song the radio starts is kept (``RadioEffect/beginListen(id:track:channel:)``)
/// and brought up to date when it leaves (``RadioEffect/endListen(id:listened:outcome:liked:)``).
/// The machine decides when a song begins and how it leaves; the session stamps the time and
/// keeps the rows.
extension RadioMachine {
    /// The song whose history row is open: it sounded and has not left yet.
    struct Listening: Sendable, Equatable {
        /// The key of its ``RadioEffect/beginListen(id:track:channel:)``.
        var id: Int
        /// The song's id.
        var sid: String
        /// Where it began (a resumed song begins midway): listened time counts from here.
        var begin: Double
        /// The furthest position reached.
        var reached: Double
        /// Whether it is liked now.
        var liked: Bool
    }

    /// The current song sounded: a new row, unless it is the open one playing on (loaded
    /// again after its audio output failed). A song left open by a change the listener did
    /// not name (a channel switch's new list replaced it) leaves as skipped.
    mutating func beginListen(_ now: NowPlaying) -> [RadioEffect] {
        if let open = listening, open.sid == now.track.sid { return [] }
        var effects = endListen(.skipped)
        let id = nextListenID
        nextListenID += 1
        listening = Listening(id: id, sid: now.track.sid, begin: now.position, reached: now.position,
                              liked: now.track.liked)
        effects.append(.beginListen(id: id, track: now.track,
                                    channel: now.track.channel ?? channel?.id ?? Channel.personalID))
        return effects
    }

    /// The open song moved on to `seconds`.
    mutating func listenProgressed(sid: String, to seconds: Double) {
        guard var open = listening, open.sid == sid else { return }
        open.reached = max(open.reached, seconds)
        listening = open
    }

    /// The open song was liked or unliked.
    mutating func listenLiked(sid: String, _ liked: Bool) {
        guard var open = listening, open.sid == sid else { return }
        open.liked = liked
        listening = open
    }

    /// The open song left, as `outcome`; nothing when no row is open, or when `sid` names
    /// another song (a song that failed before it sounded leaves no row of its own).
    mutating func endListen(_ outcome: ListenOutcome, of sid: String? = nil) -> [RadioEffect] {
        guard let open = listening, sid == nil || sid == open.sid else { return [] }
        listening = nil
        let here = nowPlaying.flatMap { $0.track.sid == open.sid ? $0.position : nil } ?? 0
        let listened = max(0, max(open.reached, here) - open.begin)
        return [.endListen(id: open.id, listened: listened, outcome: outcome, liked: open.liked)]
    }
}
