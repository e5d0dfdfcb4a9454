import Foundation
import RadioAPI
import Store

/// The radio as a pure state machine: `handle(input) -> [effect]`. It holds every rule of
/// DESIGN.md's report semantics and is tested without curl or mpv; ``RadioSession``
/// performs its effects.
///
/// Rules: start and channel switch send `n`; a natural end sends `e` (acknowledged only)
/// and `p` when nothing is queued; skip sends `s` and trash `b`, each starting the next
/// queued song at once (the report goes out beside it) and replacing the rest of the queue
/// with the answer; like/unlike send `r`/`u`, flip the flag locally and accept a list if one
/// comes back. Long reports carry `h`, the recent history. A song that starts with fewer
/// than `prefetchThreshold` songs queued fetches more early with `p`.
///
/// The player always holds the next song of the queue behind the current one (see
/// `RadioMachine+Queue.swift`): a natural end hands over to it without a gap, a skip jumps
/// to it without a load, and whenever the queue's head changes the queued song is replaced
/// or taken back, so a song the radio no longer means never plays.
public struct RadioMachine: Sendable {
    /// Tunables.
    public struct Configuration: Sendable, Equatable {
        /// Fetch more (`p`) when a song starts with fewer than this many queued after it.
        public var prefetchThreshold: Int
        /// How many actions `h` remembers.
        public var historyCapacity: Int
        /// Seconds of playback between position saves.
        public var saveInterval: Double
        /// Songs failing to play in a row before the radio stops trying.
        public var maxConsecutiveFailures: Int
        /// Delays between retries of a fetch nothing can play without; the last repeats.
        public var retryDelays: [Double]
        /// Items longer than this (seconds) resume where they were left whenever they are
        /// played again (mixes, episodes, videos).
        public var longItemSeconds: Double

        /// Creates a configuration.
        public init(prefetchThreshold: Int = 2, historyCapacity: Int = 20, saveInterval: Double = 3,
                    maxConsecutiveFailures: Int = 3, retryDelays: [Double] = [1, 2, 4, 8, 15, 30],
                    longItemSeconds: Double = 600) {
            self.prefetchThreshold = prefetchThreshold
            self.historyCapacity = historyCapacity
            self.saveInterval = saveInterval
            self.maxConsecutiveFailures = maxConsecutiveFailures
            self.retryDelays = retryDelays.isEmpty ? [5] : retryDelays
            self.longItemSeconds = longItemSeconds
        }
    }

    /// The tunables in force.
    public let configuration: Configuration
    /// The channel listened to.
    public internal(set) var channel: ChannelInfo?
    /// The channels the station lists.
    public internal(set) var channels: [ChannelInfo] = []
    /// The song loaded in the player (playing or paused), if any.
    public internal(set) var current: Track?
    /// Songs to play next, in order.
    public internal(set) var queue: [Track] = []
    /// The recent actions, sent as `h`.
    public internal(set) var history: ReportHistory
    /// Seconds played of `current`.
    public internal(set) var position: Double = 0
    /// The duration the player measured.
    public internal(set) var duration: Double?
    /// Whether the player is paused.
    public internal(set) var paused = false
    /// Volume 0–100.
    public internal(set) var volume: Int
    /// The most recent problem, until something works again.
    public internal(set) var problem: RadioError?
    /// Feedback reports waiting in the outbox.
    public internal(set) var pendingReports = 0
    /// When the pending retry fires, if one is pending.
    public internal(set) var nextRetry: Date?
    /// The ticket `current` was handed to the player with.
    public internal(set) var currentTicket: PlayTicket?
    /// Set while the player reconnects to `current`'s broken stream.
    public internal(set) var reconnecting: Reconnection?

    /// The fetch whose answer will become the queue, if one is in flight.
    var listRequest: (id: Int, type: ReportType)?
    /// True when nothing plays and nothing can until a list arrives.
    var awaitingList = false
    /// The sid to send with a `p` when the queue ran dry (the song that just ended).
    var lastSid: String?
    /// The id the next report gets; answers name it, so stale answers can be told apart.
    var nextRequestID = 1
    /// Bumped whenever a pending retry timer must no longer act (a new channel, a new
    /// login, an answer that came first): a timer fires with the token it was set with.
    var retryToken = 0
    /// How many retries in a row have been scheduled: picks the next delay.
    var retryAttempt = 0
    /// What a retry asks for: `n` while the channel has not delivered, `p` afterwards.
    var retryType: ReportType = .new
    /// Songs that failed to play in a row; at the limit the radio stops trying.
    var consecutiveFailures = 0
    /// The position last saved, so saves happen every `saveInterval` seconds of playback.
    var lastSavedPosition: Double = 0
    /// The player reported `current`'s first audio.
    var currentStarted = false
    /// The song playing was resumed from the last session: the channel's first list fills
    /// the queue behind it instead of replacing it.
    var resumed = false
    /// A song that failed to play, waiting at the head of the queue until the station's
    /// answer tells whether the song or the station was at fault.
    var suspect: Suspect?

    /// The song handed to the player to follow `current`, if any.
    var queuedItem: QueuedItem?
    /// Queued songs taken back (replaced or cleared) since the player was last loaded or
    /// stopped: if one of them starts anyway, the player had already gone on to it.
    var takenBack: Set<PlayTicket> = []
    /// The next ticket to issue.
    var nextTicket = 1
    /// `quit` was handled: nothing more is queued.
    var quitting = false

    /// See ``suspect``.
    struct Suspect: Sendable, Equatable {
        var sid: String
        var stationWasDown: Bool
    }

    /// See ``queuedItem``.
    struct QueuedItem: Sendable, Equatable {
        /// The ticket it was queued with.
        var ticket: PlayTicket
        /// The song.
        var track: Track
        /// False when the player dropped it or refused it: it is loaded when its turn comes.
        var inPlayer: Bool
    }

    /// Creates a radio that has not started.
    public init(configuration: Configuration = Configuration(), volume: Int = 100) {
        self.configuration = configuration
        self.history = ReportHistory(capacity: configuration.historyCapacity)
        self.volume = volume
    }

    /// Feeds one input; returns what to do, in order. After every input the player's queued
    /// song is brought in line with the head of the queue.
    public mutating func handle(_ input: RadioInput) -> [RadioEffect] {
        let effects = dispatch(input)
        if effects.contains(.stopPlayer) {
            // A stopped player holds nothing: neither a queued song nor one taken back.
            queuedItem = nil
            takenBack.removeAll()
        }
        let sync = syncQueued()
        // Taking a queued song back goes first: the sooner the player hears it, the less
        // chance it has to begin that song. Queueing goes last, after the load or advance
        // it follows.
        return sync == [.clearQueued] || sync == [.stopPlayer] ? sync + effects : effects + sync
    }

    private mutating func dispatch(_ input: RadioInput) -> [RadioEffect] {
        switch input {
        case .start(let id):
            return switchChannel(to: id, initial: true)
        case .resume(let track, let position, let id):
            var effects = switchChannel(to: id, initial: true)
            guard channel?.id == id else { return effects }
            effects += play(track, at: position)
            resumed = true
            return effects
        case .command(let command):
            return handle(command)
        case .channelsLoaded(let list):
            channels = list
            if let id = channel?.id, let named = list.first(where: { $0.id == id }) { channel = named }
            return []
        case .answered(let id, let tracks):
            return answered(id, tracks)
        case .failed(let id, let failure):
            return failed(id, failure)
        case .playerStarted(let ticket, let measured):
            return started(ticket, measured)
        case .playerProgress(let ticket, let seconds):
            return ticket == currentTicket ? progressed(to: seconds) : []
        case .playerDuration(let ticket, let seconds):
            if ticket == currentTicket { duration = seconds }
            return []
        case .playerRecovering(let ticket, let attempt, let most):
            return recovering(ticket, attempt: attempt, of: most)
        case .playerRecovered(let ticket):
            return recovered(ticket)
        case .playerPaused:
            paused = true
            return current.map { [.emit(.paused($0)), .savePosition(positionRecord(of: $0))] } ?? [.emit(.paused(nil))]
        case .playerResumed:
            paused = false
            return [.emit(.resumed(current))]
        case .playerVolume(let percent):
            volume = percent
            return []
        case .playerFinished(let ticket, let reason):
            return finished(ticket, reason)
        case .retryTimer(let token):
            return retry(token)
        case .retryScheduled(let date):
            nextRetry = date
            return []
        case .outboxChanged(let count):
            pendingReports = count
            return []
        case .sessionChanged:
            return sessionChanged()
        }
    }

    /// Everything a front end draws.
    public var snapshot: RadioSnapshot {
        RadioSnapshot(channel: channel, track: current, position: position, duration: duration, paused: paused,
                      volume: volume, queueLength: queue.count, channels: channels, problem: problem,
                      loading: awaitingList, pendingReports: pendingReports, nextRetry: nextRetry,
                      reconnecting: reconnecting)
    }

    // MARK: - Shared steps

    /// Builds a report about `sid` and returns the effect sending it. Long reports carry
    /// the history, which already holds this very action (CATX capture: the item for the
    /// current request is the last one in its own `h`).
    mutating func report(_ type: ReportType, sid: String?, expectList: Bool) -> RadioEffect {
        let id = nextRequestID
        nextRequestID += 1
        if expectList { listRequest = (id, type) }
        let report = Report(type: type, channel: channel?.id ?? Channel.personalID, sid: sid,
                            history: type.expectsList ? history.encoded : nil,
                            playedTime: sid == nil ? nil : (sid == current?.sid ? position : 0))
        return .send(requestID: id, report)
    }

    /// Starts `track` now (at `start` seconds), replacing what plays and what is queued.
    mutating func play(_ track: Track, at start: Double = 0) -> [RadioEffect] {
        let ticket = issueTicket()
        becomeCurrent(track, ticket: ticket, at: start)
        queuedItem = nil
        takenBack.removeAll()
        return [.play(track, startAt: start, ticket: ticket)]
    }

    /// Makes `track` the song the radio is about, not started yet.
    mutating func becomeCurrent(_ track: Track, ticket: PlayTicket, at start: Double = 0) {
        current = track
        currentTicket = ticket
        currentStarted = false
        resumed = false
        position = start
        duration = nil
        lastSavedPosition = start
        awaitingList = false
        reconnecting = nil
    }

    /// Forgets the current song: nothing plays until a list arrives.
    mutating func clearCurrent() {
        lastSid = current?.sid ?? lastSid
        current = nil
        currentTicket = nil
        currentStarted = false
        position = 0
        duration = nil
        reconnecting = nil
    }

    /// Moves to the next queued song after a natural end: the player hands over to the song
    /// it holds queued by itself; otherwise the song is loaded, or more are asked for.
    mutating func advance() -> [RadioEffect] {
        if takeQueued() != nil { return [] }
        if !queue.isEmpty { return play(queue.removeFirst()) }
        clearCurrent()
        awaitingList = true
        if listRequest == nil { return [report(.playing, sid: lastSid, expectList: true)] }
        return []
    }

    /// A ticket never issued before, for a song about to be handed to the player.
    mutating func issueTicket() -> PlayTicket {
        defer { nextTicket += 1 }
        return PlayTicket(nextTicket)
    }

    /// What to persist about `track` at the current position.
    func positionRecord(of track: Track) -> PlaybackPosition {
        PlaybackPosition(sid: track.sid, channel: channel?.id ?? Channel.personalID, position: position,
                         duration: snapshot.effectiveDuration ?? 0, url: track.url, title: track.title,
                         artist: track.artist, album: track.album)
    }

    /// A retry timer for the next delay of the backoff, with a fresh token.
    mutating func scheduleRetry() -> RadioEffect {
        retryToken += 1
        let delays = configuration.retryDelays
        let delay = delays[min(retryAttempt, delays.count - 1)]
        retryAttempt += 1
        return .scheduleRetry(after: delay, token: retryToken)
    }
}
