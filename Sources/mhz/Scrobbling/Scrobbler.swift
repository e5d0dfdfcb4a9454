import Adapters
import Settings
import Foundation
import HTTP
import Logging
import Radio
import Scrobble
import Store
import Synchronization

/// Scrobbling beside a playing radio: it follows the radio's events as the headless
/// output narrates them (a song started, paused, resumed, left; liked, unliked), tells each
/// configured service what plays now, and keeps a listen in the outbox the moment the song
/// has played long enough (``ListenTracker``), a like or unlike for Last.fm as it is made;
/// one ``ScrobbleCourier`` per service delivers them.
final class Scrobbler: Sendable {
    private struct Playing {
        var tracker = ListenTracker()
        var timer: Task<Void, Never>?
    }

    private let couriers: [ScrobbleCourier]
    private let logger: Logger
    private let playing = Mutex(Playing())
    /// Actions in the order they were made, kept by one task so their rows keep that order.
    private let actions: AsyncStream<(ScrobbleService?, ScrobbleAction)>.Continuation
    private let keeper: Task<Void, Never>
    /// The services whose refusal was said already (one line each per run).
    private let told = Mutex<Set<ScrobbleService>>([])

    /// A scrobbler for the services `settings` configures, its outbox in `database`; nil
    /// when none is configured.
    convenience init?(settings: ScrobbleSettings, database: MhzDatabase, http: HTTPConfiguration,
                      logger: Logger = Logger(label: "mhz.scrobble")) {
        let endpoints = settings.endpoints
        guard !endpoints.isEmpty else { return nil }
        let transport = ScrobbleTransportHTTP(http: HTTPClient(configuration: http), logger: logger)
        self.init(couriers: endpoints.map { ScrobbleCourier(endpoint: $0, transport: transport,
                                                             store: ScrobbleDatabase(database: database)) },
                  logger: logger)
    }

    /// A scrobbler over `couriers`.
    init(couriers: [ScrobbleCourier], logger: Logger) {
        self.couriers = couriers
        self.logger = logger
        let (stream, continuation) = AsyncStream<(ScrobbleService?, ScrobbleAction)>.makeStream()
        actions = continuation
        keeper = Task { [couriers] in
            for await (service, action) in stream {
                for courier in couriers where service == nil || courier.service == service {
                    await courier.submit(action)
                    Task { await courier.deliver() }
                }
            }
        }
    }

    /// Takes over what earlier runs left in the outbox and starts sending it.
    func start() async {
        for courier in couriers {
            let service = courier.service
            await courier.start { [weak self] note in self?.heard(note, from: service) }
            Task { await courier.deliver() }
        }
    }

    /// Follows one radio event.
    func follow(_ event: RadioEvent) {
        let now = ProcessInfo.processInfo.systemUptime
        switch event {
        case .playing(let track, _):
            let song = PlayedSong(artist: track.artist, title: track.title, album: track.album, duration: track.length,
                                  startedAt: Int64(Date().timeIntervalSince1970))
            change(now) { tracker in
                let due = tracker.leave(at: now)
                tracker.start(song, at: now)
                return due
            }
            for courier in couriers {
                Task { [logger] in
                    if let failure = await courier.nowPlaying(song) {
                        logger.info("\(ScrobbleText.name(courier.service)) playing now: \(ScrobbleText.describe(failure))")
                    }
                }
            }
        case .paused, .reconnecting:
            change(now) { tracker in
                tracker.pause(at: now)
                return nil
            }
        case .resumed, .reconnected:
            change(now) { tracker in
                tracker.resume(at: now)
                return nil
            }
        case .ended, .skipped, .trashed:
            change(now) { tracker in tracker.leave(at: now) }
        case .liked(let track):
            actions.yield((.lastFM, .love(Self.song(track))))
        case .unliked(let track):
            actions.yield((.lastFM, .unlove(Self.song(track))))
        case .channel, .goingLive, .goingRadio, .source, .status, .error, .history, .sleep, .fading:
            break
        case .livePlaying, .voted:
            // `mhz --live` runs no scrobbler: a broadcast heard is no song chosen to play.
            break
        }
    }

    /// The radio stopped: a song that counted by now is kept, the rows are all written,
    /// and the couriers stop (what is left is sent by the next run).
    func stop() async {
        change(ProcessInfo.processInfo.systemUptime) { tracker in tracker.leave(at: ProcessInfo.processInfo.systemUptime) }
        actions.finish()
        await keeper.value
        for courier in couriers { await courier.stop() }
    }

    /// Changes the tracker; a song it hands back is kept as a listen; the timer is set
    /// again for when the current song will count.
    private func change(_ now: Double, _ body: (inout ListenTracker) -> PlayedSong?) {
        let due: PlayedSong? = playing.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            let due = body(&state.tracker)
            if let remaining = state.tracker.remaining(at: now) {
                state.timer = Task { [weak self] in
                    do { try await Task.sleep(for: .milliseconds(Int((remaining * 1000).rounded()) + 1)) } catch { return }
                    self?.timerFired()
                }
            }
            return due
        }
        if let due { actions.yield((nil, .listen(due))) }
    }

    private func timerFired() {
        let now = ProcessInfo.processInfo.systemUptime
        let due = playing.withLock { $0.tracker.takeDue(at: now) }
        if let due {
            logger.info("listened: \(due.artist) – \(due.title)")
            actions.yield((nil, .listen(due)))
        }
    }

    private static func song(_ track: Track) -> PlayedSong {
        PlayedSong(artist: track.artist, title: track.title, album: track.album, duration: track.length,
                   startedAt: Int64(Date().timeIntervalSince1970))
    }

    /// A courier's note as a log line; a refusal also as one line on stderr, once per
    /// service and run.
    private func heard(_ note: ScrobbleCourier.Note, from service: ScrobbleService) {
        switch note {
        case .delivered(let count):
            logger.info("\(ScrobbleText.name(service)) took \(count) scrobble\(count == 1 ? "" : "s")")
        case .waiting(let failure, let delay):
            logger.notice("\(ScrobbleText.name(service)): \(ScrobbleText.describe(failure)); trying again in \(Int(delay.rounded())) s")
        case .refused(let action, let failure):
            logger.warning("\(ScrobbleText.refused(service, action, failure))")
        case .credentialsRefused(let failure):
            let line = ScrobbleText.credentialsRefused(service, failure)
            logger.error("\(line)")
            if told.withLock({ $0.insert(service).inserted }) {
                FileHandle.standardError.write(Data("mhz: \(line)\n".utf8))
            }
        case .storage(let failure):
            logger.error("scrobble outbox: \(ScrobbleText.describe(failure))")
        }
    }
}
