/// What the controller tells the translator about the commands it sent. Each is called under
/// the event loop's lock right after mpv accepted the command, so the bookkeeping is in place
/// before the loop handles any event the command caused.
extension PlaybackEventTranslator {
    /// `load` created entry `entry` with `loadfile … replace`: everything else registered in
    /// the playlist is gone, and a recovery in progress is abandoned.
    mutating func noteLoad(_ entry: Int64, url: String, gain: Double? = nil) {
        abandonRecovery()
        for old in unstarted.sorted() { doomed.append((old, entry)) }
        unstarted.removeAll()
        queued = nil
        register(entry, url: url, gain: gain)
    }

    /// `queueNext` appended entry `entry` (with `append` instead of `append-play` while a
    /// recovery waits, see `holdsQueue`).
    mutating func noteQueued(_ entry: Int64, url: String, startAt: Double = 0, gain: Double? = nil) {
        register(entry, url: url, gain: gain)
        queued = (entry, entry)
        queuedStart = startAt
    }

    /// The controller removed the queued item's entry from mpv's playlist (or dropped the
    /// held one): it never started, so it finishes as stopped now.
    mutating func noteDequeued() {
        guard let queued else { return }
        if let entry = queued.entry { unstarted.remove(entry) }
        urls[queued.item] = nil
        gains[queued.item] = nil
        send(.finished(PlaybackItemID(rawValue: queued.item), .stopped))
        self.queued = nil
    }

    /// The queued item is no longer "next" because mpv has already moved on to it (its
    /// START_FILE is on the way); forget it as queued, keep it registered.
    mutating func noteQueuedBecameCurrent() { queued = nil }

    /// Whether a recovery waits with nothing of the item in mpv, so a newly queued item must
    /// be appended without `append-play` (which would start it at once).
    var holdsQueue: Bool { recovery?.holdsQueue ?? false }

    /// While a recovery runs, mpv's playlist does not hold the queued item in a playable
    /// place, so `advance()` loads it with `loadfile … replace` instead of `playlist-next`.
    var queuedDuringRecovery: (item: Int64, url: String, gain: Double?)? {
        guard recovery != nil, let queued, let url = urls[queued.item] else { return nil }
        return (queued.item, url, gains[queued.item])
    }

    /// `advance()` loaded the queued item with `loadfile … replace` as `entry` during a
    /// recovery: the recovery ends (its item finishes as stopped), the queued item goes on
    /// under its id, and its old entry, which the replace removed, is silenced.
    mutating func noteAdvancedByReplace(_ entry: Int64) {
        guard let target = queuedDuringRecovery else { return }
        if let old = queued?.entry { silenced.insert(old); unstarted.remove(old) }
        abandonRecovery(keepQueued: true)
        queued = nil
        for old in unstarted.sorted() { doomed.append((old, entry)) }
        unstarted.removeAll()
        aliases[entry] = target.item
        unstarted.insert(entry)
    }

    /// `advance()` sent `playlist-next` towards the queued entry: a recovery waiting on a
    /// stall is over (the stalled entry ends as stopped), and the queued item is current now.
    mutating func noteAdvanced() {
        abandonRecovery(keepQueued: true)
        queued = nil
    }

    /// `stop` ran; returns the id to send with an asynchronous no-op whose reply marks the
    /// point in the event queue after which unregistered loads are known to be dead (nil if
    /// none).
    mutating func noteStop() -> Int64? {
        abandonRecovery()
        queued = nil
        guard let marker = unstarted.max() else { return nil }
        for old in unstarted.sorted() { doomed.append((old, marker)) }
        unstarted.removeAll()
        return marker
    }

    /// A seek is about to be sent.
    mutating func noteSeekRequested() { if current != nil { seekPending = true } }

    /// The seek command failed, so no `SEEK` event will clear the gate.
    mutating func noteSeekFailed() { seekPending = false }

    /// The loop ran `.reload`: `entry` now plays the recovering item, `requeued` (if any) is
    /// the queued item's new entry.
    mutating func noteReloaded(entry: Int64, requeued: Int64?) {
        guard var incident = recovery else { return }
        incident.reloadEntry = entry
        recovery = incident
        aliases[entry] = incident.item
        unstarted.insert(entry)
        if let requeued, let queued {
            aliases[requeued] = queued.item
            unstarted.insert(requeued)
            self.queued = (queued.item, requeued)
        }
    }

    /// The loop's `.reload` failed in mpv (the handle is shutting down or refused it): count
    /// it as a failed attempt.
    mutating func noteReloadFailed(at now: ContinuousClock.Instant) {
        guard recovery != nil else { return }
        attemptFailed(httpStatus: nil, position: nil, at: now)
    }

    /// The loop put the held queued item back as `entry`.
    mutating func noteRestored(entry: Int64, item: Int64) {
        aliases[entry] = item
        unstarted.insert(entry)
        if queued?.item == item { queued = (item, entry) }
    }

    /// Registers an entry the controller created for itself.
    private mutating func register(_ entry: Int64, url: String, gain: Double?) {
        unstarted.insert(entry)
        urls[entry] = url
        gains[entry] = gain
    }
}
