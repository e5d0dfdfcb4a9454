import Backoff
import Foundation
import RadioAPI

/// The radio as a pure state machine: `handle(input) -> [effect]`. It holds every rule of
/// the report semantics (docs/PROTOCOL.md §2) and every decision about what plays, and is
/// tested without curl or mpv; ``RadioSession`` performs its effects and nothing else.
///
/// Rules: start and channel switch send `n`; a natural end sends `e` (acknowledged only)
/// and `p` when nothing is queued; skip sends `s` and trash `b`, each starting the next
/// queued song at once (the report goes out beside it) and replacing the rest of the queue
/// with the answer; like/unlike send `r`/`u`, flip the flag locally and accept a list if one
/// comes back. Long reports carry `h`, the recent history. A song that starts with fewer
/// than `prefetchThreshold` songs queued fetches more early with `p`. Feedback (`e r u s b`)
/// goes through the outbox, kept until the station has it; fetches (`n p`) are not kept:
/// the machine asks again when one fails.
///
/// Where the radio is lives in one value, ``state`` (see ``RadioState``); the stored
/// properties beside it are facts true in every state (the channel list, the queue, the
/// history, the volume, counters).
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
        /// Songs failing to play in a row before the radio stops trying for the longest wait.
        public var maxConsecutiveFailures: Int
        /// The waits between retries of a fetch nothing can play without, and between tries
        /// of the report outbox's blocked line.
        public var retry: Backoff
        /// Items longer than this (seconds) resume where they were left whenever they are
        /// played again (mixes, episodes, videos).
        public var longItemSeconds: Double

        /// Creates a configuration.
        public init(prefetchThreshold: Int = 2, historyCapacity: Int = 20, saveInterval: Double = 3,
                    maxConsecutiveFailures: Int = 3, retry: Backoff = Backoff(initial: 1, cap: 30, jitter: 0.2),
                    longItemSeconds: Double = 600) {
            self.prefetchThreshold = prefetchThreshold
            self.historyCapacity = historyCapacity
            self.saveInterval = saveInterval
            self.maxConsecutiveFailures = maxConsecutiveFailures
            self.retry = retry
            self.longItemSeconds = longItemSeconds
        }
    }

    /// The tunables in force.
    public let configuration: Configuration
    /// Where the radio is.
    public internal(set) var state: RadioState = .idle
    /// The channel listened to, from the start on.
    public internal(set) var channel: ChannelInfo?
    /// The channels the station lists.
    public internal(set) var channels: [ChannelInfo] = []
    /// Songs to play next, in order.
    public internal(set) var queue: [Track] = []
    /// The recent actions, sent as `h`.
    public internal(set) var history: ReportHistory
    /// Whether the player is paused. mpv keeps its pause across loads, so this outlives songs.
    public internal(set) var paused = false
    /// Volume 0–100.
    public internal(set) var volume: Int
    /// The most recent problem, until something works again.
    public internal(set) var problem: RadioError?
    /// Feedback reports waiting in the outbox.
    public internal(set) var pendingReports = 0
    /// When the station is next tried after a failure (by the radio or the outbox), if it is.
    public internal(set) var nextRetry: Date?
    /// Where songs come from (see ``SongSource``).
    public internal(set) var source: SongSource = .station
    /// The downloads, as last told.
    public internal(set) var downloads = DownloadsOverview()
    /// The channels as the station lists them (``channels`` adds the offline channel).
    var stationChannels: [ChannelInfo] = []
    /// While downloads play in place of an unreachable station: the id of the request that
    /// asks the station whether it is back, when one is on its way.
    var probe: Int?

    /// Where queued songs start, by sid, when they are long items the listener left midway
    /// (decided when their list arrived; see ``resumePoint(of:saved:)``).
    var resumePoints: [String: Double] = [:]
    /// Songs the listener trashed on this station, ever: never started again, whatever list
    /// a station sends (one that ignores `b`, a web station's one-song answer).
    var trashed: Set<String> = []
    /// Retries of a list fetch in a row: picks the next wait of ``Configuration/retry``.
    var retryAttempt = 0
    /// Songs that failed to play in a row; at the limit the radio stops trying for a while.
    var consecutiveFailures = 0
    /// Queued songs taken back (replaced or cleared) since the player was last loaded or
    /// stopped: if one of them starts anyway, the player had already gone on to it.
    var takenBack: Set<PlayTicket> = []
    /// The id the next report gets; answers name it, so stale answers can be told apart.
    var nextRequestID = 1
    /// The next ticket to issue to a song handed to the player.
    var nextTicket = 1
    /// The next token to give a retry timer.
    var nextRetryToken = 1
    /// The song whose history row is open (see `RadioMachine+History.swift`).
    var listening: Listening?
    /// The key the next history row gets.
    var nextListenID = 1
    /// The sleep timer.
    public internal(set) var sleepTimer = SleepTimer()
    /// Where `mute` goes back to.
    public internal(set) var mute = MuteSwitch()
    /// The history's newest songs, as the session last told.
    var recentListens: [ListenEntry] = []
    /// Reports about songs of the history that are not playing: their answers (a list for
    /// `b`, maybe for `r`/`u`) must not change the queue.
    var pastReports: Set<Int> = []

    /// Creates a radio that has not started.
    public init(configuration: Configuration = Configuration(), volume: Int = 100) {
        self.configuration = configuration
        self.history = ReportHistory(capacity: configuration.historyCapacity)
        self.volume = volume
    }

    /// Feeds one input; returns what to do, in the order it must be done. The last step of
    /// every input brings the player's queued song in line with the head of the queue
    /// (queueing goes after the load or advance it follows; a transition that must take a
    /// queued song back does so first, itself).
    public mutating func handle(_ input: RadioInput) -> [RadioEffect] {
        if case .quit = state { return [] }
        return dispatch(input) + syncQueued()
    }

    private mutating func dispatch(_ input: RadioInput) -> [RadioEffect] {
        switch input {
        case .start(let id, let lastChannel, let lastPosition, let trashed):
            self.trashed = trashed
            return start(channelID: id, lastChannel: lastChannel, lastPosition: lastPosition)
        case .command(let command):
            return handle(command)
        case .channelsLoaded(let list):
            stationChannels = list
            listChannels()
            if let id = channel?.id, let named = list.first(where: { $0.id == id }) { channel = named }
            return []
        case .answered(let id, let tracks, let saved):
            return answered(id, tracks, saved: saved)
        case .failed(let id, let failure):
            return failed(id, failure)
        case .playerStarted(let ticket, let measured):
            return started(ticket, measured)
        case .playerProgress(let ticket, let seconds):
            return progressed(ticket, to: seconds)
        case .playerDuration(let ticket, let seconds):
            if ticket == currentTicket { updatePlaying { $0.duration = seconds } }
            return []
        case .playerRecovering(let ticket, let attempt, let most):
            return recovering(ticket, attempt: attempt, of: most)
        case .playerRecovered(let ticket):
            return recovered(ticket)
        case .playerPaused:
            paused = true
            guard let now = nowPlaying else { return [.emit(.paused(nil))] }
            return [.emit(.paused(now.track)), .savePosition(positionRecord(of: now))]
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
        case .downloadsChanged(let overview):
            return downloadsChanged(overview)
        case .historyChanged(let entries):
            recentListens = entries
            return []
        case .sleepTimer(let token):
            return sleepFired(token)
        case .sleepScheduled(let date):
            sleepTimer.scheduled(ends: date)
            return []
        }
    }

    // MARK: - Reading the state

    /// The song playing or paused, if any.
    public var current: Track? { nowPlaying?.track }

    /// The current song with its progress, if one is current.
    var nowPlaying: NowPlaying? {
        if case .playing(let now) = state { return now }
        return nil
    }

    /// The ticket the current song is in the player with; nil when none is, or it is held.
    public var currentTicket: PlayTicket? { loaded?.ticket }

    /// The current song as the player holds it, if it does.
    var loaded: LoadedSong? {
        if case .loaded(let song)? = nowPlaying?.slot { return song }
        return nil
    }

    /// The list fetch under way, in whatever state.
    var fetch: ListFetch? {
        switch state {
        case .silent(let silence): silence.fetch
        case .playing(let now): now.fetch
        case .idle, .quit: nil
        }
    }

    /// The list request on its way, if one is.
    var listRequest: ListRequest? { fetch?.request }

    /// Everything a front end draws.
    public var snapshot: RadioSnapshot {
        let now = nowPlaying
        var reconnecting: Reconnection?
        if case .reconnecting(let attempt)? = loaded?.stage { reconnecting = attempt }
        var silent = false
        if case .silent = state { silent = true }
        var snapshot = RadioSnapshot(channel: channel, track: now?.track, position: now?.position ?? 0,
                             duration: now?.duration, paused: paused, volume: volume, queueLength: queue.count,
                             channels: channels, problem: problem, loading: silent,
                             pendingReports: pendingReports, nextRetry: nextRetry, reconnecting: reconnecting,
                             source: source, downloads: downloads)
        snapshot.sleepEnds = sleepTimer.ends
        snapshot.history = recentListens
        return snapshot
    }

    // MARK: - Shared steps

    /// Changes the current song's record, if a song is current.
    mutating func updatePlaying(_ change: (inout NowPlaying) -> Void) {
        guard case .playing(var now) = state else { return }
        change(&now)
        state = .playing(now)
    }

    /// Changes the player's hold on the current song, if it holds it.
    mutating func updateLoaded(_ change: (inout LoadedSong) -> Void) {
        updatePlaying { now in
            guard case .loaded(var song) = now.slot else { return }
            change(&song)
            now.slot = .loaded(song)
        }
    }

    /// Puts `fetch` in place as the list fetch under way (replacing any before it).
    mutating func setFetch(_ fetch: ListFetch?) {
        switch state {
        case .playing(var now):
            now.fetch = fetch
            state = .playing(now)
        case .silent(var silence):
            // Silence always waits for something: a cleared fetch while silent does not happen.
            guard let fetch else { return }
            silence.fetch = fetch
            state = .silent(silence)
        case .idle, .quit:
            return
        }
    }

    /// A report about `sid` (or none) with the history and played time it needs, and a
    /// fresh id for its answer. Long reports carry the history, which already holds this
    /// very action (the official client's captured traffic shows the item for the current
    /// request as the last one in its own `h`).
    mutating func makeReport(_ type: ReportType, sid: String?) -> (id: Int, report: Report) {
        let id = nextRequestID
        nextRequestID += 1
        let played: Double? = sid == nil ? nil : (sid == current?.sid ? nowPlaying?.position ?? 0 : 0)
        let report = Report(type: type, channel: reportChannel(about: sid), sid: sid,
                            history: type.expectsList ? history.entries : nil, playedTime: played)
        return (id, report)
    }

    /// Asks the station for a list (`n` or `p`) whose answer becomes the queue, and makes it
    /// the fetch under way. Fetches are not kept in the outbox.
    mutating func fetchList(_ type: ReportType, sid: String?) -> RadioEffect {
        let (id, report) = makeReport(type, sid: sid)
        setFetch(.asking(ListRequest(id: id, type: type)))
        return source.isOffline ? .fetchDownloads(requestID: id) : .fetch(requestID: id, report)
    }

    /// Feedback (`e r u s b`): kept in the outbox until the station has it. `s` and `b`
    /// also become the list fetch under way: their answer replaces the queue.
    mutating func deliver(_ type: ReportType, sid: String) -> RadioEffect {
        let (id, report) = makeReport(type, sid: sid)
        if type.expectsList { setFetch(.asking(ListRequest(id: id, type: type))) }
        return .deliver(requestID: id, report)
    }

    /// Starts `track` now at `start` (or where a long item was left), replacing what plays
    /// and what is queued; `fetch` is the list fetch that goes on.
    mutating func play(_ track: Track, at start: Double? = nil, fetch: ListFetch?) -> [RadioEffect] {
        let ticket = issueTicket()
        let begin = start ?? resumePoints.removeValue(forKey: track.sid) ?? 0
        state = .playing(NowPlaying(track: track, position: begin, duration: nil, lastSaved: begin, resumed: false,
                                    slot: .loaded(LoadedSong(ticket: ticket, stage: .opening, next: nil)),
                                    fetch: fetch))
        takenBack.removeAll()
        return [.play(track, startAt: begin, ticket: ticket)]
    }

    /// Nothing plays until songs arrive; `lastSid` names the song that last played.
    mutating func fallSilent(lastSid: String?, fetch: ListFetch, suspect: Suspect? = nil) {
        state = .silent(Silence(fetch: fetch, lastSid: lastSid, suspect: suspect))
    }

    /// The player is told to stop: afterwards it holds nothing, neither a queued song nor
    /// one taken back.
    mutating func stopPlayer() -> RadioEffect {
        takenBack.removeAll()
        updateLoaded { $0.next = nil }
        return .stopPlayer
    }

    /// A ticket never issued before, for a song about to be handed to the player.
    mutating func issueTicket() -> PlayTicket {
        defer { nextTicket += 1 }
        return PlayTicket(nextTicket)
    }

    /// What to persist about the current song at its current position.
    func positionRecord(of now: NowPlaying) -> PlaybackPosition {
        let track = now.track
        let measured = now.duration.flatMap { $0 > 0 ? $0 : nil }
        return PlaybackPosition(sid: track.sid, channel: channel?.id ?? Channel.personalID, position: now.position,
                                duration: measured ?? max(0, track.length), url: track.url, title: track.title,
                                artist: track.artist, album: track.album)
    }

    /// A retry timer for the next wait of the backoff; it becomes the fetch under way.
    mutating func scheduleRetry(asking type: ReportType) -> RadioEffect {
        let (timer, effect) = newRetryTimer(asking: type)
        setFetch(.retrying(timer))
        return effect
    }

    /// A timer for the next wait of the backoff, with a fresh token, and the effect that
    /// sets it; the caller makes it the fetch under way.
    mutating func newRetryTimer(asking type: ReportType) -> (RetryTimer, RadioEffect) {
        let token = nextRetryToken
        nextRetryToken += 1
        let delay = configuration.retry.delay(attempt: retryAttempt)
        retryAttempt += 1
        return (RetryTimer(token: token, type: type), .scheduleRetry(after: delay, token: token))
    }

    /// Where a long item starts: where the listener left it, unless it was finished. The
    /// station's length decides what is long; when it gives none (0), the duration the
    /// player measured last time, as saved.
    func resumePoint(of track: Track, saved: PlaybackPosition?) -> Double {
        guard let saved, !saved.isFinished else { return 0 }
        let length = track.length > 0 ? track.length : saved.duration
        return length > configuration.longItemSeconds ? saved.position : 0
    }
}
