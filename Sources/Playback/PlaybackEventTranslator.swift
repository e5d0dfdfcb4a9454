import CMpv

/// Turns mpv's events into `PlaybackEvent`s and keeps the promises documented there. Pure
/// state: no mpv calls, and the clock is passed in, so tests drive it with scripted events.
///
/// mpv orders what it reports (observed on 0.35.1, one handle, `loadfile … replace`):
/// `START_FILE n` → `FILE_LOADED` → `duration` → `PLAYBACK_RESTART` → `time-pos` changes →
/// `END_FILE n`; a replacing load gives `END_FILE(old, stop)` then `START_FILE(new)`. An entry
/// replaced or stopped before mpv began it gets no event at all, which is why the controller
/// registers each load here and this type makes up its `finished(.stopped)`.
struct PlaybackEventTranslator {
    /// The smallest wall-clock gap between two `progress` events (at most ~4 per second;
    /// mpv reports `time-pos` 12–20 times a second).
    static let progressInterval: Duration = .milliseconds(250)

    /// Ids returned by `load` for which mpv has not sent `START_FILE` yet.
    private var unstarted: Set<Int64> = []
    /// The first entry a playlist file was replaced with (END_FILE `redirect`) → the load's id.
    private var aliases: [Int64: Int64] = [:]
    /// The mpv entry between its START_FILE and END_FILE, and the item it reports as.
    private var current: (entry: Int64, item: Int64)?
    /// FILE_LOADED was seen for `current`.
    private var loaded = false
    /// `started` was sent for `current`.
    private var started = false
    /// The latest known duration of `current`, and the one last reported.
    private var duration: Double?
    private var reportedDuration: Double?
    /// The last `progress` sent for `current`.
    private var lastProgress: Double?
    private var lastProgressTime: ContinuousClock.Instant?
    /// A seek was requested and mpv has not begun it: `time-pos` values still describe the
    /// old position and are dropped.
    private var seekPending = false
    /// Last known pause flag and volume, to report changes only.
    private var paused: Bool
    private var volume: Int

    /// Starts from the pause flag and volume read from mpv before observing them, so the
    /// initial observed values (or a change that mpv coalesced into them) compare correctly.
    init(paused: Bool, volume: Int) {
        self.paused = paused
        self.volume = volume
    }

    // MARK: - What the controller tells it

    /// `load` created entry `entry`.
    mutating func noteLoad(_ entry: Int64) { unstarted.insert(entry) }

    /// `stop` ran; returns the id to send with an asynchronous no-op whose reply marks the
    /// point in the event queue after which unstarted loads are known to be dead (nil if none).
    func noteStop() -> Int64? { unstarted.max() }

    /// A seek is about to be sent.
    mutating func noteSeekRequested() { if current != nil { seekPending = true } }

    /// The seek command failed, so no `SEEK` event will clear the gate.
    mutating func noteSeekFailed() { seekPending = false }

    // MARK: - Events

    /// The `PlaybackEvent`s one mpv event produces, in order.
    mutating func translate(_ event: MPVEvent, at now: ContinuousClock.Instant) -> [PlaybackEvent] {
        switch event {
        case .startFile(let entry): return startFile(entry)
        case .fileLoaded:
            loaded = current != nil
            return []
        case .playbackRestart:
            lastProgressTime = nil  // report where a seek landed without waiting for the throttle
            guard let current, loaded, !started else { return [] }
            started = true
            reportedDuration = duration
            return [.started(PlaybackItemID(rawValue: current.item), duration: duration)]
        case .seek:
            seekPending = false
            lastProgressTime = nil
            return []
        case .endFile(let end): return endFile(end)
        case .propertyChanged(let property, let value): return propertyChanged(property, value, at: now)
        case .commandReply(let marker, _): return finishUnstarted { $0 <= Int64(clamping: marker) }
        case .shutdown: return finishAll()
        case .none, .other: return []
        }
    }

    /// What to send when the handle goes away: a `finished(.stopped)` for anything mpv did
    /// not end itself, then `shutdown`.
    mutating func finishAll() -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        if let current { events.append(.finished(PlaybackItemID(rawValue: current.item), .stopped)) }
        resetCurrent()
        events += finishUnstarted { _ in true }
        return events + [.shutdown]
    }

    private mutating func startFile(_ entry: Int64) -> [PlaybackEvent] {
        let item = aliases.removeValue(forKey: entry) ?? entry
        aliases = aliases.filter { $0.key > entry }  // inserted entries that never came
        unstarted.remove(entry)
        // Entries get increasing ids and every load replaces the playlist, so a registered
        // entry older than the one starting now was dropped without ever starting.
        let events = finishUnstarted { $0 < item }
        resetCurrent()
        current = (entry, item)
        return events
    }

    private mutating func endFile(_ end: MPVEndFile) -> [PlaybackEvent] {
        unstarted.remove(end.entry)
        var item = aliases[end.entry] ?? end.entry
        if let current, current.entry == end.entry {
            item = current.item
            resetCurrent()
        }
        let reason: EndReason
        switch end.reason {
        case .eof: reason = .eof
        case .stop, .quit: reason = .stopped
        case .error: reason = .error(mpvErrorText(end.error))
        case .redirect where end.insertedCount > 0:
            // A playlist file (e.g. .m3u) was replaced by its entries; its first entry plays
            // on behalf of this load. Later entries keep their own ids, which no caller knows.
            aliases[end.insertedEntry] = item
            return []
        case .redirect: reason = .error(mpvErrorText(MPV_ERROR_NOTHING_TO_PLAY.rawValue))  // an empty playlist
        case .unknown(let raw): reason = .error("unknown end-file reason \(raw)")
        }
        return [.finished(PlaybackItemID(rawValue: item), reason)]
    }

    private mutating func propertyChanged(_ property: MPVProperty, _ value: MPVNode,
                                          at now: ContinuousClock.Instant) -> [PlaybackEvent] {
        switch (property, value) {
        case (.timePosition, .double(let position)):
            guard let current, started, !seekPending, position != lastProgress else { return [] }
            if let lastProgressTime, now - lastProgressTime < Self.progressInterval { return [] }
            lastProgress = position
            lastProgressTime = now
            return [.progress(PlaybackItemID(rawValue: current.item), position: position)]
        case (.duration, _):
            duration = value.doubleValue
            guard let current, started, let duration, duration != reportedDuration else { return [] }
            reportedDuration = duration
            return [.duration(PlaybackItemID(rawValue: current.item), duration)]
        case (.pause, .flag(let flag)) where flag != paused:
            paused = flag
            return [flag ? .paused : .resumed]
        case (.volume, .double(let level)) where Int(level.rounded()) != volume:
            volume = Int(level.rounded())
            return [.volume(volume)]
        default:
            return []  // unavailable values, and values equal to the last ones
        }
    }

    /// `finished(.stopped)` for the unstarted loads matching `isDead`, oldest first.
    private mutating func finishUnstarted(_ isDead: (Int64) -> Bool) -> [PlaybackEvent] {
        let dead = unstarted.filter(isDead).sorted()
        unstarted.subtract(dead)
        return dead.map { .finished(PlaybackItemID(rawValue: $0), .stopped) }
    }

    private mutating func resetCurrent() {
        current = nil
        loaded = false
        started = false
        duration = nil
        reportedDuration = nil
        lastProgress = nil
        lastProgressTime = nil
        seekPending = false
    }
}
