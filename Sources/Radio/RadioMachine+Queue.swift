/// Keeps the player's queued song equal to the head of the radio's queue.
///
/// Why: DESIGN.md wants a skip that does not wait for the network and songs that follow
/// each other without a gap. Both need the next song already open in the player. The
/// machine's queue changes for many reasons (a skip's or trash's answer replaces it, a
/// channel switch empties it, a fetch fills it); after every input, `syncQueued` compares
/// the queue's head with what the player holds and replaces it, queues it, or takes it back.
extension RadioMachine {
    /// The effect (if any) that makes the player's queued song the queue's head, or
    /// nothing while no song is current or the current one is out of the player (its audio
    /// output failed: a song queued behind nothing would start at once).
    mutating func syncQueued() -> [RadioEffect] {
        guard !quitting else { return [] }
        let wanted = current == nil || currentTicket == nil ? nil : queue.first
        if let item = queuedItem, item.track == wanted { return [] }
        let previous = queuedItem
        queuedItem = nil
        guard let previous, previous.inPlayer else {
            if let wanted { return enqueue(wanted) }
            return []
        }
        if current == nil {
            // The current song failed or the queue ran dry: mpv plays the next entry by
            // itself when one fails, so the player may be on the queued song already. Only
            // stopping it makes sure nothing plays.
            takenBack.removeAll()
            return [.stopPlayer]
        }
        noteTakenBack(previous.ticket)
        if let wanted { return enqueue(wanted) }  // replaces the previous one in the player
        return [.clearQueued]
    }

    /// Queues `track` in the player, replacing the song queued there before.
    private mutating func enqueue(_ track: Track) -> [RadioEffect] {
        let ticket = issueTicket()
        queuedItem = QueuedItem(ticket: ticket, track: track, inPlayer: true)
        return [.queueNext(track, ticket: ticket)]
    }

    /// Makes the queued song current when the player holds it and it is still the queue's
    /// head: the player moves on to it by itself (natural end) or on `advance` (skip).
    mutating func takeQueued() -> QueuedItem? {
        guard let item = queuedItem, item.inPlayer, item.track == queue.first else { return nil }
        queue.removeFirst()
        queuedItem = nil
        becomeCurrent(item.track, ticket: item.ticket)
        return item
    }

    /// Remembers a queued song taken back, keeping the newest few.
    private mutating func noteTakenBack(_ ticket: PlayTicket) {
        takenBack.insert(ticket)
        if takenBack.count > 8, let oldest = takenBack.min() { takenBack.remove(oldest) }
    }
}
