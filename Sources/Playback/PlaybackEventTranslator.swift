import CMpv

/// Turns mpv's events into `PlaybackEvent`s, keeps the promises documented there, and
/// decides recoveries. Pure state: no mpv calls, and the clock is passed in, so tests drive
/// it with scripted events. What must reach mpv comes out as `PlayerAction`s and timers for
/// the event loop to carry out.
///
/// mpv orders what it reports (observed on 0.35.1, one handle): `START_FILE n` →
/// `FILE_LOADED` → `duration` → `PLAYBACK_RESTART` → `time-pos` changes → `END_FILE n`; a
/// replacing load gives `END_FILE(old, stop)` then `START_FILE(new)`; a queued entry follows
/// `END_FILE(old, eof)` directly with its `START_FILE`. An entry dropped from the playlist
/// before mpv began it (replaced, dequeued, stopped) gets no event at all, which is why the
/// controller registers each entry here and this type makes up its `finished(.stopped)`.
struct PlaybackEventTranslator {
    /// The smallest wall-clock gap between two `progress` events (at most ~4 per second;
    /// mpv reports `time-pos` 12–20 times a second).
    static let progressInterval: Duration = .milliseconds(250)

    /// The entry mpv is playing (between its START_FILE and END_FILE) and what is known of it.
    struct Current {
        /// mpv's entry id.
        var entry: Int64
        /// The item it plays for.
        var item: Int64
        /// FILE_LOADED was seen.
        var loaded = false
        /// `started` (or, for a recovery reload, `recovered`) was sent.
        var started = false
        /// The latest known duration, and the one last reported.
        var duration: Double?
        var reportedDuration: Double?
        /// The last position reported in `progress`, when, and the last one seen at all.
        var lastProgress: Double?
        var lastProgressTime: ContinuousClock.Instant?
        var lastPosition: Double?
        /// Network trouble was logged while this entry was current.
        var transportTrouble = false
        /// The last HTTP error status logged while this entry was current.
        var httpStatus: Int?
        /// Trouble and status logged since the last "Failed to open <url>": they belong to
        /// this entry unless that line names another URL (a prefetched next item).
        var tentativeTrouble = false
        var tentativeStatus: Int?

        /// Whether network trouble was logged for this entry (tentative evidence included).
        var troubled: Bool { transportTrouble || tentativeTrouble }
        /// The HTTP error status logged for this entry, if any.
        var status: Int? { tentativeStatus ?? httpStatus }
        /// `paused-for-cache` as last reported for this entry.
        var buffering = false
        /// Tags seen before `started`, sent right after it.
        var pendingMetadata: StreamMetadata?
        /// The last tags sent.
        var metadata: StreamMetadata?
    }

    /// Item id → URL, for reloads and re-queueing (items that may still need it).
    var urls: [Int64: String] = [:]
    /// Item id → the gain (dB) its loads carry, for the same reloads and re-queues; absent
    /// for an item played as it is.
    var gains: [Int64: Double] = [:]
    /// mpv entry → item id, for entries that play on behalf of another id (recovery reloads,
    /// re-queued items, the first entry of a playlist file).
    var aliases: [Int64: Int64] = [:]
    /// Entries registered by the controller for which mpv has not sent START_FILE yet.
    var unstarted: Set<Int64> = []
    /// Entries dropped from mpv's playlist without an event of their own, each with the entry
    /// id whose START_FILE (or marker reply) proves it dead; reported then as stopped.
    var doomed: [(entry: Int64, boundary: Int64)] = []
    /// Entries whose events are ignored: displaced by a recovery, which carries their item on.
    var silenced: Set<Int64> = []
    /// The item queued to play next, and its mpv entry (nil while a recovery holds it back).
    var queued: (item: Int64, entry: Int64?)?
    /// Where the queued item starts, seconds, so a re-queue after a recovery keeps it.
    var queuedStart: Double = 0
    /// The playing entry.
    var current: Current?
    /// A recovery in progress.
    var recovery: RecoveryIncident?
    /// The recovery rules.
    let policy: RecoveryPolicy
    /// HTTP status logged just before mpv's "Failed to open <url>", by URL: a prefetched
    /// next item is opened (and fails) while the previous one is still current.
    var failedOpens: [String: Int] = [:]
    /// The HTTP status of the last "HTTP error" log line not yet tied to a "Failed to open"
    /// line, so a prefetched item's refusal is filed under its own URL.
    var lastLoggedStatus: Int?
    /// A seek was requested and mpv has not begun it: `time-pos` values still describe the
    /// old position and are dropped.
    var seekPending = false
    /// Last known pause, mute and volume, to report changes only.
    var paused: Bool
    /// Last known mute flag.
    var muted: Bool
    /// Last known volume, percent.
    var volume: Int
    /// An END_FILE whose meaning depends on log lines that mpv may deliver after it (it
    /// hands out queued events before buffered log messages), decided at the next
    /// `MPV_EVENT_NONE`; events arriving meanwhile wait in `held`, in order.
    var pendingEnd: MPVEndFile?
    /// Events that arrived while `pendingEnd` waited, in mpv's order.
    var held: [MPVEvent] = []
    /// The pending END_FILE waits for a `MediaURLProbe` answer rather than for the drain.
    var probing = false
    /// Answers of finished probes by entry (0: no HTTP answer).
    var probedStatus: [Int64: Int] = [:]
    /// Whether a refused URL whose status mpv's log did not give is probed.
    let probesStatus: Bool
    /// The audio output writes as fast as mpv decodes (`ao=pcm`, a file): a song is over
    /// before mpv has reported more than its first position, so an end short of the
    /// duration proves nothing and only trouble in the log makes it a break.
    let untimedOutput: Bool
    /// Timers wanted (see `TranslatorTimer`).
    var timers: [TranslatorTimer] = []
    /// Output not yet taken by the loop.
    var outbox: [PlaybackEvent] = []
    /// What the loop must do against mpv, not yet taken.
    var actions: [PlayerAction] = []

    /// Starts from the pause flag, mute flag and volume read from mpv before observing them,
    /// so the initial observed values (or a change mpv coalesced into them) compare correctly.
    init(paused: Bool, volume: Int, muted: Bool = false, policy: RecoveryPolicy = RecoveryPolicy(),
         probesStatus: Bool = false, untimedOutput: Bool = false) {
        self.paused = paused
        self.volume = volume
        self.muted = muted
        self.policy = policy
        self.probesStatus = probesStatus
        self.untimedOutput = untimedOutput
    }

    // MARK: - Output

    /// Whether the loop must poll (`mpv_wait_event` timeout 0) so an END_FILE can be decided
    /// once mpv's queue, log lines included, is drained.
    var needsDrain: Bool { pendingEnd != nil && !probing }

    /// The earliest timer deadline.
    var nextDeadline: ContinuousClock.Instant? { timers.map(\.deadline).min() }

    /// Hands over and clears the events and actions produced so far.
    mutating func takeOutput() -> (events: [PlaybackEvent], actions: [PlayerAction]) {
        defer { outbox.removeAll(); actions.removeAll() }
        return (outbox, actions)
    }

    /// Appends an event for the loop to send.
    mutating func send(_ event: PlaybackEvent) { outbox.append(event) }

    /// The id of the item an mpv entry plays for.
    func item(ofEntry entry: Int64) -> Int64 { aliases[entry] ?? entry }

    // MARK: - Events

    /// Handles one mpv event; its events and actions wait in the output.
    mutating func translate(_ event: MPVEvent, at now: ContinuousClock.Instant) {
        if case .logMessage(let message) = event { return noteLog(message) }
        if pendingEnd != nil {
            guard event == .none else { return held.append(event) }
            if probing { return }
            resolvePendingEnd(at: now)
            while pendingEnd == nil, !held.isEmpty { dispatch(held.removeFirst(), at: now) }
            return
        }
        dispatch(event, at: now)
    }

    /// The probe for the pending END_FILE of `entry` answered (`status` nil: no HTTP
    /// answer); decides it and goes on with the events held meanwhile.
    mutating func noteProbeResult(entry: Int64, status: Int?, at now: ContinuousClock.Instant) {
        guard probing, pendingEnd?.entry == entry else { return }
        probing = false
        probedStatus[entry] = status ?? 0
        translate(.none, at: now)
    }

    /// Convenience for tests: translate and take the events.
    mutating func events(for event: MPVEvent, at now: ContinuousClock.Instant) -> [PlaybackEvent] {
        translate(event, at: now)
        return takeOutput().events
    }

    private mutating func dispatch(_ event: MPVEvent, at now: ContinuousClock.Instant) {
        switch event {
        case .startFile(let entry): startFile(entry, at: now)
        case .fileLoaded:
            current?.loaded = true
        case .playbackRestart: playbackRestart(at: now)
        case .seek:
            seekPending = false
            current?.lastProgressTime = nil
        case .endFile(let end): endFile(end, at: now)
        case .propertyChanged(let property, let value): propertyChanged(property, value, at: now)
        case .commandReply(let marker, _): finishDoomed { $0 <= Int64(clamping: marker) }
        case .shutdown: finishAll()
        case .logMessage(let message): noteLog(message)
        case .none, .other: break
        }
    }

    /// What to send when the handle goes away: `finished(.stopped)` for everything that has
    /// not finished, then `shutdown`.
    mutating func finishAll() {
        if let pendingEnd { endFile(pendingEnd, decided: true, at: .now) }
        pendingEnd = nil
        held.removeAll()
        if let current, !silenced.contains(current.entry) { send(.finished(PlaybackItemID(rawValue: current.item), .stopped)) }
        current = nil
        abandonRecovery()
        finishDoomed { _ in true }
        for entry in unstarted.sorted() where !silenced.contains(entry) {
            send(.finished(PlaybackItemID(rawValue: item(ofEntry: entry)), .stopped))
        }
        unstarted.removeAll()
        queued = nil
        timers.removeAll()
        send(.shutdown)
    }

    /// `finished(.stopped)` for the doomed entries matching `isDead`, oldest first.
    mutating func finishDoomed(_ isDead: (Int64) -> Bool) {
        let dead = doomed.filter { isDead($0.boundary) }.map(\.entry).sorted()
        doomed.removeAll { isDead($0.boundary) }
        for entry in dead { send(.finished(PlaybackItemID(rawValue: item(ofEntry: entry)), .stopped)) }
    }
}
