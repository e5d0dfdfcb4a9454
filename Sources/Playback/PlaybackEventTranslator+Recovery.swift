import Backoff

/// Recovery decisions (see `RecoveryPolicy` for the rules and `RecoveryIncident` for the state).
extension PlaybackEventTranslator {
    /// The entry `broken` broke (ended early, or stalled past the timeout): report the first
    /// attempt and schedule it.
    mutating func beginRecovery(from broken: Current, stalled: Bool, at now: ContinuousClock.Instant) {
        guard let url = urls[broken.item] ?? urls[broken.entry] else {
            return finish(broken.item, .error("stream broke and its URL is unknown"))
        }
        var incident = RecoveryIncident(item: broken.item, url: url, gain: gains[broken.item] ?? gains[broken.entry],
                                        position: broken.lastPosition ?? 0, attempt: 1,
                                        duration: broken.duration ?? broken.reportedDuration)
        if stalled { incident.stalledEntry = broken.entry }
        recovery = incident
        send(.recovering(PlaybackItemID(rawValue: broken.item), attempt: 1, position: incident.position))
        if !stalled { holdQueuedOutsideMPV() }
        schedule(attempt: 1, at: now)
    }

    /// The running attempt failed (the reload ended early or with an error, or stalled). A
    /// status that will not pass (``StatusVerdict/mayPassLater``: a 4xx other than 408 and
    /// 429) ends the item as unavailable; otherwise the next attempt is scheduled, or
    /// the player gives up once `maxAttempts` are spent.
    mutating func attemptFailed(httpStatus: Int?, position: Double?, at now: ContinuousClock.Instant) {
        guard var incident = recovery else { return }
        let id = PlaybackItemID(rawValue: incident.item)
        if let position { incident.position = max(incident.position, position) }
        if let live = incident.reloadEntry ?? incident.stalledEntry, current?.entry == live {
            // Still in mpv (a stalled reload): the next reload or the halt below replaces it.
            silenced.insert(live)
            current = nil
        }
        incident.reloadEntry = nil
        incident.stalledEntry = nil
        incident.playing = false
        if let httpStatus, !StatusVerdict(status: httpStatus).mayPassLater {
            endRecovery()
            return finish(incident.item, .mediaUnavailable(status: httpStatus))
        }
        guard incident.attempt < policy.maxAttempts else {
            endRecovery()
            send(.gaveUp(id, attempts: incident.attempt, position: incident.position))
            return finish(incident.item, .connectionLost)
        }
        incident.attempt += 1
        recovery = incident
        send(.recovering(id, attempt: incident.attempt, position: incident.position))
        holdQueuedOutsideMPV()
        schedule(attempt: incident.attempt, at: now)
    }

    /// A caller's command (load, stop, advance) ends the recovery: the waiting item finishes
    /// as stopped unless mpv still has an entry for it, whose own END_FILE will say so. The
    /// held queued item is dropped too, unless `keepQueued` (advance plays it).
    mutating func abandonRecovery(keepQueued: Bool = false) {
        timers.removeAll { if case .reload = $0.kind { true } else { false } }
        guard let incident = recovery else {
            if !keepQueued { dropHeldQueued() }
            return
        }
        recovery = nil
        if incident.reloadEntry == nil, incident.stalledEntry == nil { finish(incident.item, .stopped) }
        if !keepQueued { dropHeldQueued() }
    }

    /// Runs the timers that are due.
    mutating func fire(at now: ContinuousClock.Instant) {
        let due = timers.filter { $0.deadline <= now }
        timers.removeAll { $0.deadline <= now }
        for timer in due {
            switch timer.kind {
            case .reload(let attempt): startReload(attempt: attempt)
            case .stallCheck(let entry):
                guard let playing = current, playing.entry == entry, playing.buffering, playing.started else { continue }
                if recovery?.reloadEntry == entry {
                    attemptFailed(httpStatus: nil, position: playing.lastPosition, at: now)
                } else if recovery == nil {
                    beginRecovery(from: playing, stalled: true, at: now)
                }
            }
        }
    }

    /// Asks the loop to reload the item, silencing the entries the `replace` will end.
    private mutating func startReload(attempt: Int) {
        guard var incident = recovery, incident.attempt == attempt, incident.reloadEntry == nil else { return }
        if let stalled = incident.stalledEntry {
            silenced.insert(stalled)
            if current?.entry == stalled { current = nil }
            incident.stalledEntry = nil
        }
        var requeue: PlayerAction.QueuedURL?
        if let queued, let url = urls[queued.item] {
            if let entry = queued.entry { silenced.insert(entry); unstarted.remove(entry) }
            self.queued = (queued.item, nil)
            requeue = PlayerAction.QueuedURL(item: queued.item, url: url, start: queuedStart, gain: gains[queued.item])
        }
        recovery = incident
        actions.append(.reload(item: incident.item, url: incident.url, start: incident.position, gain: incident.gain,
                               requeue: requeue))
    }

    /// mpv moves on to the queued item when the broken one ends; it must not play before the
    /// reload, so its entry is silenced, mpv halted, and the item kept outside mpv.
    private mutating func holdQueuedOutsideMPV() {
        guard let queued, let entry = queued.entry else { return }
        silenced.insert(entry)
        unstarted.remove(entry)
        if current?.entry == entry { current = nil }
        self.queued = (queued.item, nil)
        actions.append(.halt)
    }

    /// The incident is over without a reload playing: halt whatever of it mpv still holds,
    /// and put the queued item back so it plays next, as it would have without the break.
    private mutating func endRecovery() {
        recovery = nil
        timers.removeAll { if case .reload = $0.kind { true } else { false } }
        actions.append(.halt)
        guard let queued, let url = urls[queued.item] else { return }
        if let entry = queued.entry {
            silenced.insert(entry)
            unstarted.remove(entry)
        }
        self.queued = (queued.item, nil)
        actions.append(.restoreQueued(PlayerAction.QueuedURL(item: queued.item, url: url, start: queuedStart,
                                                             gain: gains[queued.item])))
    }

    private mutating func dropHeldQueued() {
        guard let queued, queued.entry == nil else { return }
        self.queued = nil
        finish(queued.item, .stopped)
    }

    private mutating func schedule(attempt: Int, at now: ContinuousClock.Instant) {
        let delay = policy.delay(forAttempt: attempt)
        timers.append(TranslatorTimer(deadline: now + .milliseconds(Int64(delay * 1000)), kind: .reload(attempt: attempt)))
    }
}
