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

    /// The fetch whose answer will become the queue, if one is in flight.
    var listRequest: (id: Int, type: ReportType)?
    /// True when nothing plays and nothing can until a list arrives.
    var awaitingList = false
    /// The sid to send with a `p` when the queue ran dry (the song that just ended).
    var lastSid: String?
    var nextRequestID = 1
    var retryToken = 0
    var retryAttempt = 0
    /// What a retry asks for: `n` while the channel has not delivered, `p` afterwards.
    var retryType: ReportType = .new
    var consecutiveFailures = 0
    var lastSavedPosition: Double = 0
    var currentStarted = false
    /// The song playing was resumed from the last session: the channel's first list fills
    /// the queue behind it instead of replacing it.
    var resumed = false
    /// A song that failed to play, waiting at the head of the queue until the station's
    /// answer tells whether the song or the station was at fault.
    var suspect: Suspect?

    /// See ``suspect``.
    struct Suspect: Sendable, Equatable {
        var sid: String
        var stationWasDown: Bool
    }

    /// Creates a radio that has not started.
    public init(configuration: Configuration = Configuration(), volume: Int = 100) {
        self.configuration = configuration
        self.history = ReportHistory(capacity: configuration.historyCapacity)
        self.volume = volume
    }

    /// Feeds one input; returns what to do, in order.
    public mutating func handle(_ input: RadioInput) -> [RadioEffect] {
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
        case .playerStarted(let measured):
            return started(measured)
        case .playerProgress(let seconds):
            return progressed(to: seconds)
        case .playerDuration(let seconds):
            duration = seconds
            return []
        case .playerPaused:
            paused = true
            return current.map { [.emit(.paused($0)), .savePosition(positionRecord(of: $0))] } ?? [.emit(.paused(nil))]
        case .playerResumed:
            paused = false
            return [.emit(.resumed(current))]
        case .playerVolume(let percent):
            volume = percent
            return []
        case .playerFinished(let reason):
            return finished(reason)
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
                      loading: awaitingList, pendingReports: pendingReports, nextRetry: nextRetry)
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

    /// Starts `track` now (at `start` seconds), replacing what plays.
    mutating func play(_ track: Track, at start: Double = 0) -> [RadioEffect] {
        current = track
        currentStarted = false
        resumed = false
        position = start
        duration = nil
        lastSavedPosition = start
        awaitingList = false
        return [.play(track, startAt: start)]
    }

    /// Moves to the next queued song, or asks for more when none is left.
    mutating func advance() -> [RadioEffect] {
        if !queue.isEmpty { return play(queue.removeFirst()) }
        lastSid = current?.sid ?? lastSid
        current = nil
        currentStarted = false
        position = 0
        duration = nil
        awaitingList = true
        if listRequest == nil { return [report(.playing, sid: lastSid, expectList: true)] }
        return []
    }

    func positionRecord(of track: Track) -> PlaybackPosition {
        PlaybackPosition(sid: track.sid, channel: channel?.id ?? Channel.personalID, position: position,
                         duration: snapshot.effectiveDuration ?? 0, url: track.url, title: track.title,
                         artist: track.artist, album: track.album)
    }

    mutating func scheduleRetry() -> RadioEffect {
        retryToken += 1
        let delays = configuration.retryDelays
        let delay = delays[min(retryAttempt, delays.count - 1)]
        retryAttempt += 1
        return .scheduleRetry(after: delay, token: retryToken)
    }
}
