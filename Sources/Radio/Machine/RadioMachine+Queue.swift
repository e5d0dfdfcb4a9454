/// Keeps the player's queued song equal to the head of the radio's queue.
///
/// Why: a skip must not wait for the network, and songs should follow each other without
/// a gap. Both need the next song already open in the player. The machine's queue changes
/// for many reasons (a skip's or trash's answer replaces it, a channel switch empties it, a
/// fetch fills it); the last step of every input compares the queue's head with what the
/// player holds and replaces it, queues it, or takes it back. Transitions that must take a
/// queued song back before anything else happens (the player could begin it any moment)
/// do so themselves, first.
extension RadioMachine {
    /// The effect (if any) that makes the player's queued song the queue's head. Nothing
    /// is queued behind a song held out of the player (its audio output failed: a song
    /// queued behind nothing would start at once).
    mutating func syncQueued() -> [RadioEffect] {
        guard let song = loaded else { return [] }
        let wanted = queue.first
        if let next = song.next, next.track == wanted { return [] }
        guard let previous = song.next, previous.inPlayer else {
            if let wanted { return enqueue(wanted) }
            updateLoaded { $0.next = nil }
            return []
        }
        noteTakenBack(previous.ticket)
        if let wanted { return enqueue(wanted) }  // replaces the previous one in the player
        updateLoaded { $0.next = nil }
        return [.clearQueued]
    }

    /// Takes the queued song back from the player (the queue it came from is gone).
    mutating func withdrawQueued() -> [RadioEffect] {
        guard let next = loaded?.next else { return [] }
        updateLoaded { $0.next = nil }
        guard next.inPlayer else { return [] }
        noteTakenBack(next.ticket)
        return [.clearQueued]
    }

    /// Takes the queued song back when the queue has run empty, before the effects that
    /// follow; a new head replaces it at the end of the input instead.
    mutating func withdrawQueuedIfStale() -> [RadioEffect] {
        queue.isEmpty ? withdrawQueued() : []
    }

    /// The current song failed: mpv plays the next entry by itself when one fails, so the
    /// player may be on the queued song already. Only stopping it makes sure nothing plays.
    mutating func withdrawQueuedIfPlaying() -> [RadioEffect] {
        guard let next = loaded?.next else { return [] }
        updateLoaded { $0.next = nil }
        return next.inPlayer ? [stopPlayer()] : []
    }

    /// Queues `track` in the player, replacing the song queued there before.
    private mutating func enqueue(_ track: Track) -> [RadioEffect] {
        let ticket = issueTicket()
        let start = resumePoints[track.sid] ?? 0
        updateLoaded { $0.next = QueuedSong(ticket: ticket, track: track, start: start, inPlayer: true) }
        return [.queueNext(track, startAt: start, ticket: ticket)]
    }

    /// Makes the queued song current when the player holds it and it is still the queue's
    /// head: the player moves on to it by itself (natural end) or on `advance` (skip).
    mutating func takeQueued() -> QueuedSong? {
        guard let now = nowPlaying, case .loaded(let song) = now.slot, let next = song.next, next.inPlayer,
              next.track == queue.first
        else { return nil }
        queue.removeFirst()
        resumePoints.removeValue(forKey: next.track.sid)
        state = .playing(NowPlaying(track: next.track, position: next.start, duration: nil, lastSaved: next.start,
                                    resumed: false,
                                    slot: .loaded(LoadedSong(ticket: next.ticket, stage: .opening, next: nil)),
                                    fetch: now.fetch))
        return next
    }

    /// Remembers a queued song taken back, keeping the newest few.
    private mutating func noteTakenBack(_ ticket: PlayTicket) {
        takenBack.insert(ticket)
        if takenBack.count > 8, let oldest = takenBack.min() { takenBack.remove(oldest) }
    }
}
