import Foundation
import Hummingbird
import HummingbirdTLS
import MusicLibrary
import NIOCore
import Recommender
import ServiceLifecycle
import SoundFeatures
import StationStorage
import Synchronization

/// mhz's own radio server: a Douban-app-API-compatible station over a music folder (or the
/// synthesized demo library), served by Hummingbird.
///
/// `mhz serve` runs it as a server, and tests run against it on an ephemeral 127.0.0.1
/// port; `mhz` with no server configured asks it in-process instead
/// (``respond(method:path:query:body:)``), without starting the server at all.
///
/// ```swift
/// let station = try await Station(configuration: .init(library: music, dataDirectory: data))
/// let url = try await station.start()      // http://127.0.0.1:<port>
/// …
/// await station.stop()
/// ```
///
/// The station never installs signal handlers: the host process owns signals and stops the
/// station by calling ``stop()`` or cancelling the task in ``run(onListening:)``.
///
/// The Hummingbird application runs inside a service group of its own, with no signals,
/// and stops by graceful shutdown rather than task cancellation: cancelling the serving
/// task while an accepted connection is still queued traps in NIO ("Deinited
/// NIOAsyncWriter without calling finish()", apple/swift-nio#3481, whose maintainers
/// recommend graceful shutdown instead). Connections still busy after
/// ``StationConfiguration/shutdownGracePeriod`` are cancelled.
public final class Station: Sendable {
    /// The configuration the station was created with.
    public let configuration: StationConfiguration
    private let database: StationDatabase
    /// The library served, replaced by the rescans that change it.
    let library: LiveLibrary
    /// Scans the folder served.
    let loader: LibraryLoader
    private let services: StationRouter.Services
    private let profiles: ListenerProfiles
    /// The live channels (`/live/…`), broadcast while the station serves.
    private let live: LiveHub
    /// What `/metrics` answers, counted as the station serves.
    let metrics: StationMetrics
    /// Measures the tracks' sound in the background; `nil` when the configuration says not to.
    let sound: BackgroundAnalysis?
    private let server = ServerHandle()
    /// Where scans run, one at a time (`Station+Rescans.swift`).
    let scans = DispatchQueue(label: "mhz.station.scan")
    /// What the latest scan did.
    let latestScan: Mutex<ScanSummary>
    /// The rescan timer while one runs.
    let rescanTimer = Mutex<Task<Void, Never>?>(nil)
    /// What HTTPS is served with, read and checked at creation; nil for plain HTTP.
    private let tlsConfiguration: TLSConfiguration?
    /// The listening socket handed over at creation, until the first start takes it.
    private let inheritedDescriptor: Mutex<Int32?>
    /// The address of the socket served when it was handed over: what the root URL names.
    private let adoptedHost = Mutex<String?>(nil)

    /// How long a stop waits by default for requests in flight (a player still streaming a
    /// song) before cancelling them.
    public static let shutdownGracePeriod: Duration = .seconds(2)

    /// Creates a station: opens its database, then scans the library folder (only what
    /// changed since the last scan is read), or synthesizes the demo library when the
    /// folder is not set, missing or holds no playable file.
    ///
    /// The scan runs on a dispatch queue, off Swift's cooperative pool, because TagLib reads
    /// every file with blocking I/O.
    ///
    /// The TLS certificate and key, when configured, are read and checked first, so a bad
    /// pair fails before the database is opened or anything binds.
    ///
    /// - Throws: ``StationError/tlsUnreadable(path:reason:)``,
    ///   ``StationError/tlsMismatch(certificate:key:)``,
    ///   ``StationError/databaseFailed(path:reason:)``,
    ///   ``StationError/libraryUnreadable(path:reason:)`` or
    ///   ``StationError/demoSynthesisFailed(path:reason:)``.
    public init(configuration: StationConfiguration) async throws(StationError) {
        self.configuration = configuration
        inheritedDescriptor = Mutex(configuration.listeningDescriptor)
        if let tls = configuration.tls {
            // Reading the files and building a context block: off the pool.
            tlsConfiguration = try await Blocking.run { () throws(StationError) in try tls.serverConfiguration() }
        } else {
            tlsConfiguration = nil
        }
        let directory = configuration.dataDirectory
        let database = try await Blocking.run { () throws(StationError) -> StationDatabase in
            do throws(StorageError) { return try StationDatabase(directory: directory) } catch { throw StationError(database: error) }
        }
        self.database = database
        let covers = CoverStore(directory: configuration.coverDirectory)
        loader = LibraryLoader(folder: configuration.library, fallsBackToDemo: configuration.fallsBackToDemo,
                               demoDirectory: configuration.demoLibraryDirectory, database: database, covers: covers,
                               logger: configuration.effectiveLogger)
        let loader = self.loader
        let first = try await Blocking.run(on: scans) { () throws(StationError) in try loader.load() }
        library = LiveLibrary(first.library)
        latestScan = Mutex(first.summary)
        let accounts = AccountStore(database: database, tokenLifetime: configuration.tokenLifetime)
        var system = SystemRandomNumberGenerator()
        let logger = configuration.effectiveLogger
        // The station answers from here on; the sound of the tracks not yet measured is
        // measured behind it, and each table it publishes makes the next lists better.
        if configuration.analysesSound {
            let analysis = BackgroundAnalysis(records: SoundRecords(database: database), logger: logger,
                                              gate: configuration.soundAnalysisGate,
                                              afterRound: configuration.afterSoundAnalysis)
            analysis.schedule(first.library, publish: library.soundPublisher())
            sound = analysis
        } else {
            sound = nil
        }
        let profiles = try await Blocking.run { () throws(StationError) -> ListenerProfiles in
            do throws(StorageError) { return try ListenerProfiles(database: database, logger: logger) } catch {
                throw StationError(database: error)
            }
        }
        self.profiles = profiles
        let responder = PlaylistResponder(
            library: library, profiles: profiles,
            recommender: Recommender(seed: configuration.seed ?? system.next()), leveling: configuration.leveling)
        let live = LiveHub(directory: configuration.liveDirectory, configuration: configuration.live,
                           leveling: configuration.leveling, library: library, responder: responder, logger: logger)
        self.live = live
        let metrics = StationMetrics()
        metrics.libraryScanned(in: first.summary.duration)
        self.metrics = metrics
        var services = StationRouter.Services(library: library, responder: responder, accounts: accounts,
                                          captchas: CaptchaStore(), covers: covers, tokenGuard: TokenGuard(limits: configuration.tokenGuard),
                                          loginGuard: LoginGuard(limits: configuration.loginGuard, failed: metrics.loginFailed),
                                          transcodes: TranscodeCache(directory: configuration.transcodeDirectory,
                                                                     started: metrics.transcodeStarted),
                                          transcodeRangeWait: configuration.transcodeRangeWait, live: live)
        services.metrics = metrics
        let started = ContinuousClock.now
        let sound = self.sound
        services.status = { [library] in
            let (served, table) = library.snapshotWithSound
            let uptime = started.duration(to: .now).components.seconds
            return StationStatus(tracks: served.tracks.count, analysed: table.analysedCount,
                                 unreadable: sound?.unreadableCount ?? 0, uptime: Int(clamping: uptime),
                                 live: live.onAir.map { StationStatus.Live(channel: $0.channel, listeners: $0.listeners,
                                                                           onAirSince: $0.since) })
        }
        services.statusForEveryone = configuration.statusForEveryone
        self.services = services
    }

    /// Creates an account in the station database of `dataDirectory`, for `mhz serve
    /// --add-user`. Works while a station serves from that directory (SQLite in WAL mode
    /// lets both write); the new user can log in at once.
    ///
    /// - Parameters:
    ///   - name: the user name (1 to 64 printable characters); a name containing `@` is also
    ///     the account's e-mail address.
    ///   - password: 1 to 72 bytes; stored only as a bcrypt hash.
    ///   - email: an e-mail address to log in with as well, if any.
    ///   - cost: bcrypt's cost, log2 of its rounds: by default 12 (2^12 rounds, a fraction of a
    ///     second per login); tests use 4 to stay fast.
    ///   - dataDirectory: the station's data directory.
    /// - Returns: the new account's `user_id`.
    /// - Throws: ``StationError/invalidUserName(_:)``, ``StationError/invalidPassword``,
    ///   ``StationError/userExists(name:)`` or ``StationError/databaseFailed(path:reason:)``.
    @discardableResult
    public static func addUser(name: String, password: String, email: String? = nil, cost: UInt8 = 12,
                               dataDirectory: URL) async throws(StationError) -> String {
        try await Blocking.run { () throws(StationError) -> String in
            let database: StationDatabase
            do throws(StorageError) { database = try StationDatabase(directory: dataDirectory) } catch { throw StationError(database: error) }
            return try AccountStore.addUser(name: name, password: password, email: email, cost: cost,
                                            database: database)
        }
    }

    /// The library served right now.
    var servedLibrary: Library {
        library.snapshot
    }

    /// How the tracks of the library served sound, as far as they have been measured.
    var servedSound: SoundTable {
        library.sound
    }

    /// Returns once the sound analysis has nothing queued or under way (at once when the
    /// station does not analyse).
    public func soundAnalysisIdle() async {
        await sound?.idle()
    }

    /// The live channels (tests look at a broadcast without asking for it, which would
    /// count as a listener).
    var liveHub: LiveHub {
        live
    }

    /// The captchas handed out (tests read answers from it, as a person reads the image).
    var captchaStore: CaptchaStore {
        services.captchas
    }

    /// The root URL while serving (`http://127.0.0.1:<port>`, `https://` with TLS), else `nil`.
    public var baseURL: URL? {
        server.baseURL
    }

    /// The address of the socket served when it was handed over
    /// (``StationConfiguration/listeningDescriptor``): `0.0.0.0`, `::1`, …; `nil` when the
    /// station bound its configured host itself.
    public var handedOverHost: String? {
        adoptedHost.withLock { $0 }
    }

    /// What the station serves.
    public var libraryInfo: LibraryInfo {
        library.snapshot.info
    }

    /// Answers one API request in-process, as the HTTP routes answer it, but with song and
    /// cover links to the files themselves (`file://`): how `mhz` talks to its embedded
    /// station without a server, a socket or the media passing through HTTP. The request
    /// is reported to ``StationConfiguration/onRequest`` like one that came over the network.
    ///
    /// - Parameters:
    ///   - method: `GET` or `POST`.
    ///   - path: the route, e.g. `/j/app/radio/people`.
    ///   - query: the query string as in a URL (`a=1&b=2`), if any.
    ///   - body: the form body of a POST.
    public func respond(method: String, path: String, query: String?, body: Data = Data()) async -> StationReply {
        let request = StationRequest(method: method, path: path, rawQuery: query)
        configuration.onRequest?(request)
        return await StationAPI(services: services)
            .respond(method: method, path: path, query: query, body: body, origin: .inProcess,
                     links: .files(covers: services.covers))
    }

    /// The file of the song with this id in the library served, if it has one.
    public func mediaFile(sid: String) -> URL? {
        library.snapshot.track(sid: sid)?.file
    }

    /// Binds and starts serving in the background; returns once the socket listens.
    ///
    /// - Returns: the root URL, with the port the kernel chose when the configured port is 0.
    /// - Throws: ``StationError/bindFailed(address:reason:)`` when the address cannot be
    ///   bound, ``StationError/alreadyRunning`` when the station is already serving,
    ///   ``StationError/cancelled`` when the calling task was cancelled before the server
    ///   listened.
    public func start() async throws(StationError) -> URL {
        guard let generation = server.beginStarting() else { throw .alreadyRunning }
        let address = "\(configuration.host):\(configuration.port)"
        let (bound, announce) = AsyncStream<Result<Int, StationError>>.makeStream()
        let application: any Service
        do throws(StationError) {
            let socket = try listeningSocket()
            server.attach(socket, generation: generation)
            application = makeServer(on: socket) { port in announce.yield(.success(port)) }
        } catch {
            server.finished(generation: generation)?.release()
            throw error
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: application)], gracefulShutdownSignals: [], cancellationSignals: [],
            logger: configuration.effectiveLogger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        let group = ServiceGroup(configuration: groupConfiguration)
        let server = self.server
        let task = Task {
            do {
                try await group.run()
                announce.yield(.failure(.bindFailed(address: address, reason: "server ended")))
            } catch {
                announce.yield(.failure(.bindFailed(address: address, reason: Self.reason(error))))
            }
            announce.finish()
            server.finished(generation: generation)?.release()
        }
        server.attach(task, group: group, generation: generation)
        startRescanTimer()
        live.startAlways()
        // A station started again after a stop measures what that stop interrupted.
        if let sound, sound.isStopped {
            sound.schedule(library.snapshot, publish: library.soundPublisher())
        }

        // The first event decides: the port from onServerRunning, or the error that ended
        // `run()` before it got that far (a taken port, an unknown host).
        var outcome = Result<Int, StationError>.failure(.cancelled)
        for await event in bound {
            outcome = event
            break
        }
        switch outcome {
        case .success(let port):
            // A socket handed over is named by its own address, whatever --host says.
            let host = adoptedHost.withLock { $0 } ?? configuration.host
            let url = Self.rootURL(host: host, port: port, secure: tlsConfiguration != nil)
            server.didBind(url, generation: generation)
            return url
        case .failure(let error):
            // The server never listened: binding failed (the task has ended already), or the
            // caller was cancelled first (the task may still be starting up). Either way,
            // make sure it is down before reporting.
            stopRescans()
            await group.triggerGracefulShutdown()
            await task.value
            server.finished(generation: generation)?.release()
            throw error
        }
    }

    /// Binds and serves until the calling task is cancelled: the form `mhz serve` uses.
    ///
    /// - Parameter onListening: called once with the root URL as soon as the socket listens.
    /// - Throws: what ``start()`` throws; nothing once serving.
    public func run(onListening: (@Sendable (URL) -> Void)? = nil) async throws(StationError) {
        let url = try await start()
        onListening?(url)
        guard let task = server.task else { return }
        let stopping = Mutex<Task<Void, Never>?>(nil)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            stopping.withLock { $0 = Task { await self.stop() } }
        }
        // Ended by a cancellation: returns once stopped (the socket closed). Ended by the
        // server failing: what was learned is saved before returning, as a stop saves it.
        if let stop = stopping.withLock({ $0 }) { await stop.value }
        await profiles.flush()
    }

    /// Stops serving and waits until the socket is closed: no new connections are taken,
    /// requests in flight get ``StationConfiguration/shutdownGracePeriod`` to finish, then
    /// are cancelled. Then waits until the feedback of every report answered is in the
    /// database (reports are answered before they are written, see ``FeedbackWriter``), and
    /// the sound analysis' and the live broadcasts' threads have ended (a file half measured is measured again by the
    /// next start).
    public func stop() async {
        await shutDown(keepingSocket: false)
    }

    /// Stops serving as ``stop()`` does, everything the station keeps written, but leaves
    /// its listening socket open and returns its descriptor (close-on-exec): for a restart
    /// of the station that serves the same socket (``StationConfiguration/listeningDescriptor``),
    /// the process re-executing itself. From the moment the server stops accepting, clients
    /// that connect wait in the socket's backlog for the next server; none is refused.
    ///
    /// - Returns: the socket's descriptor, the caller's to close or hand on; `nil` when the
    ///   station was not serving.
    public func stopKeepingSocket() async -> Int32? {
        await shutDown(keepingSocket: true)?.descriptor
    }

    /// The stop both forms share: the server ended and its socket closed unless it is
    /// kept, then the broadcasts, the sound analysis and what was learned; returns the
    /// socket kept.
    @discardableResult
    private func shutDown(keepingSocket: Bool) async -> ListeningSocket? {
        stopRescans()
        let detached = server.detach()
        if let group = detached.group, let task = detached.task {
            await group.triggerGracefulShutdown()
            await task.value
        }
        // Closed as soon as nothing serves it: a station stopped refuses at once.
        if !keepingSocket { detached.socket?.release() }
        let live = self.live
        await Blocking.run { live.stopAll() }
        await sound?.stop()
        await profiles.flush()
        return keepingSocket ? detached.socket : nil
    }

    /// Returns once the feedback of every report answered so far is in the database
    /// (reports are answered before they are written, see ``FeedbackWriter``).
    func feedbackWritten() async {
        await profiles.flush()
    }

    /// What the station has learned about `listener` (``ListenerProfiles/key(userID:)``).
    func profile(for listener: String) async throws(StationError) -> ListenerProfile {
        do throws(StorageError) { return try await profiles.profile(for: listener) } catch { throw StationError(database: error) }
    }

    // MARK: - Private

    /// The socket to serve: the one handed over at creation (by the first start only),
    /// else a new one bound to the configured host and port.
    private func listeningSocket() throws(StationError) -> ListeningSocket {
        if let descriptor = inheritedDescriptor.withLock({ descriptor in defer { descriptor = nil }; return descriptor }) {
            let socket = try ListeningSocket.adopt(descriptor)
            adoptedHost.withLock { $0 = socket.address?.host }
            return socket
        }
        adoptedHost.withLock { $0 = nil }
        return try ListeningSocket.open(host: configuration.host, port: configuration.port)
    }

    private func makeServer(on socket: ListeningSocket, onBound: @escaping @Sendable (Int) -> Void) -> some Service {
        let server = self.server
        let host = configuration.host
        let configuredPort = configuration.port
        let secure = tlsConfiguration != nil
        let routes = StationRouter.make(
            services: services, observer: configuration.onRequest, scheme: secure ? "https" : "http",
            fallbackBase: {
                server.baseURL?.absoluteString ?? Self.rootURL(host: host, port: configuredPort, secure: secure).absoluteString
            })
        // One set of handlers per connection (the closure runs for each one). A listener's
        // playlist polls and segment fetches are answered in the pipeline (LiveEdgeHandler)
        // unless every request must reach the router: a request observer, or debug logging
        // (its line per request), as StationResponder's short path. The idle timeout is the
        // station's own (IdleTimeoutHandler, before the live edge's so that it sees the
        // requests that handler answers too); Hummingbird's is off. A graceful shutdown
        // lets a request already sent be read before the connection closes
        // (QuiesceGraceHandler).
        let linger = configuration.lingerAfterRefusal
        let idle = TimeAmount(configuration.idleTimeout)
        let edge: (any LiveEdgeSource)? = configuration.onRequest == nil && configuration.effectiveLogger.logLevel > .debug
            ? LiveEdgeRoute(hub: live, metrics: metrics) : nil
        let handlers: @Sendable () -> [any RemovableChannelHandler] = {
            let common: [any RemovableChannelHandler] = [MalformedRequestHandler(), OversizedBodyHandler(linger: linger),
                                                         QuiesceGraceHandler(), IdleTimeoutHandler(timeout: idle)]
            return common + (edge.map { [LiveEdgeHandler(source: $0)] } ?? [])
        }
        // With TLS, each accepted connection is wrapped in NIOSSL's server handler.
        return StationServer(socket: socket, responder: routes.buildResponder(),
                             http: .init(additionalChannelHandlers: handlers()), tls: tlsConfiguration,
                             logger: configuration.effectiveLogger, onListening: onBound)
    }
}
