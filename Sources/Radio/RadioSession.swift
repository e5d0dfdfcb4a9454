import Backoff
import Foundation
import RadioAPI

/// Runs a ``RadioMachine``: feeds it commands, station answers, player events and what the
/// store remembers, and performs the effects it returns through the ports
/// (``RadioService``, ``AudioPlayer``, ``RadioStore``). It decides nothing: what to play,
/// where to start and which report goes where are the machine's decisions.
///
/// Reports run in their own tasks, so a skip never waits for the network: the next song
/// is loaded in the same turn as the skip, and the station's answer arrives later as an
/// input like any other.
public actor RadioSession {
    private var machine: RadioMachine
    private let service: any RadioService
    private let player: any AudioPlayer
    private let store: (any RadioStore)?
    private let downloads: (any SongDownloads)?
    private let listens: (any ListeningLog)?
    /// The history's key of each song the machine began (see ``RadioEffect/beginListen(id:track:channel:)``).
    private var listenKeys: [Int: Int64] = [:]
    private let courier: ReportCourier
    /// Reports on their way to the courier: the report, its request id and its outbox row.
    private let courierInbox: AsyncStream<(Report, Int, Int64?)>.Continuation
    private let courierStream: AsyncStream<(Report, Int, Int64?)>
    private let retry: Backoff
    private let clock: RetryClock
    private var courierTask: Task<Void, Never>?
    private let onSnapshot: @Sendable (RadioSnapshot) -> Void
    /// The machine's ticket for each player item handed over by an effect.
    private var tickets: [AudioPlayerItemID: PlayTicket] = [:]
    /// Inputs waiting while the effects of another are performed.
    private var pendingInputs: [RadioInput] = []
    private var handling = false
    private var lastSnapshot: RadioSnapshot?
    private var playerTask: Task<Void, Never>?
    private var quitRequested = false
    private var quitWaiters: [CheckedContinuation<Void, Never>] = []
    private let eventContinuation: AsyncStream<RadioEvent>.Continuation

    /// Narration of what happens, for headless front ends. Single consumer.
    public nonisolated let events: AsyncStream<RadioEvent>

    /// Creates a session. `onSnapshot` is called (on the session's executor) whenever what
    /// a front end would draw changed. Without `downloads`, `download` and the offline
    /// channel have nothing to work with (the offline channel stays empty); without
    /// `history`, no history is kept. Retries (of reports and of list fetches) wait on `clock`.
    public init(service: any RadioService, player: any AudioPlayer, store: (any RadioStore)?,
                downloads: (any SongDownloads)? = nil, history: (any ListeningLog)? = nil,
                configuration: RadioMachine.Configuration = .init(), volume: Int = 100,
                clock: RetryClock = .system,
                onSnapshot: @escaping @Sendable (RadioSnapshot) -> Void = { _ in }) {
        self.downloads = downloads
        self.listens = history
        self.machine = RadioMachine(configuration: configuration, volume: volume)
        self.service = service
        self.player = player
        self.store = store
        self.onSnapshot = onSnapshot
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        retry = configuration.retry
        self.clock = clock
        courier = ReportCourier(service: service, store: store, backoff: configuration.retry, clock: clock)
        (courierStream, courierInbox) = AsyncStream<(Report, Int, Int64?)>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Starts listening: loads the channel list, then plays `channelID`, or the channel
    /// of the last session, or the personal channel.
    public func start(channelID: String?) async {
        if playerTask == nil {
            let events = player.events
            playerTask = Task { [weak self] in
                for await event in events { await self?.playerEvent(event) }
            }
        }
        if courierTask == nil {
            let courier = self.courier, inbox = courierStream
            // One consumer, so reports reach the courier in the order the machine made them.
            courierTask = Task {
                for await (report, id, rowID) in inbox {
                    await courier.submit(report, requestID: id, rowID: rowID)
                }
            }
        }
        do throws(StorageFailure) {
            try await courier.start(
                outcome: { [weak self] id, result in await self?.courierOutcome(id, result) },
                onCount: { [weak self] count in await self?.outboxChanged(count) },
                onRetry: { [weak self] date in await self?.courierRetries(at: date) },
                onUnreadable: { [weak self] type in await self?.unreadableReport(type) })
        } catch {
            storageFailed(error)
        }
        do {
            let channels = try await service.channels()
            handle(.channelsLoaded(channels))
        } catch {
            eventContinuation.yield(.error(.service(error)))
        }
        // What the last session left: the machine decides whether to resume it.
        let lastChannel = (try? store?.setting(RadioSettingKey.lastChannel)) ?? nil
        let lastPosition = (try? store?.lastPosition()) ?? nil
        refreshHistory()
        handle(.start(channelID: channelID, lastChannel: lastChannel, lastPosition: lastPosition,
                      trashed: downloads?.trashedSids() ?? []))
    }

    /// Performs a command. `status` and `quit` first bring the machine's position up to
    /// the player's exact one, so the answer and the position saved on the way out (quit,
    /// SIGINT, SIGTERM) are where playback is, not where the last `progress` left it.
    public func send(_ command: RadioCommand) {
        if command == .status || command == .quit { refreshPosition() }
        handle(.command(command))
    }

    /// The downloads changed: the downloads view, the status line and the offline channel
    /// follow.
    public func downloadsChanged(_ overview: DownloadsOverview) {
        handle(.downloadsChanged(overview))
    }

    /// The listener logged in: requests carry the new session from now on (the service
    /// reads it per request); a fetch waiting out a failure is made again at once.
    public func sessionChanged() {
        handle(.sessionChanged)
    }

    /// What a front end would draw now.
    public func snapshot() -> RadioSnapshot { machine.snapshot }

    /// What a front end would draw now, with the position brought up to the player's exact
    /// one first: the answer to a `status` asked by one client (the control socket) without
    /// narrating a `status` event to everyone.
    public func currentSnapshot() -> RadioSnapshot {
        refreshPosition()
        return machine.snapshot
    }

    /// The songs started, newest first, at most `limit` (every one when nil); empty without
    /// a history. A failure to read it is narrated as a storage error.
    public func history(limit: Int?) -> [ListenEntry] {
        guard let listens else { return [] }
        do throws(StorageFailure) {
            return try listens.recent(limit: limit)
        } catch {
            storageFailed(error)
            return []
        }
    }

    /// How many of the newest songs the machine holds (the history view lists them, and
    /// `past` acts on them).
    public static let historyShown = 100

    /// Tells the machine the history's newest songs.
    private func refreshHistory() {
        guard listens != nil else { return }
        handle(.historyChanged(history(limit: Self.historyShown)))
    }

    /// Returns once `quit` was handled (progress saved, player stopped).
    public func waitUntilQuit() async {
        if quitRequested { return }
        await withCheckedContinuation { quitWaiters.append($0) }
    }

    // MARK: - Inputs

    private func courierOutcome(_ id: Int?, _ result: Result<[Track], ServiceFailure>) {
        switch result {
        case .success(let tracks):
            // Reports carried over from an earlier run have no request: their answer only
            // tells that the station is back.
            answered(id, id == nil ? [] : tracks)
        case .failure(let failure):
            handle(.failed(requestID: id, failure))
        }
    }

    /// Feeds an answer with what the store remembers of its songs (where long items were left).
    private func answered(_ id: Int?, _ tracks: [Track]) {
        var saved: [String: PlaybackPosition] = [:]
        for track in tracks {
            if let position = (try? store?.position(sid: track.sid)) ?? nil { saved[track.sid] = position }
        }
        handle(.answered(requestID: id, tracks: tracks, saved: saved))
    }

    private func unreadableReport(_ type: String) {
        eventContinuation.yield(.error(.unreadableReport(type: type)))
    }

    private func outboxChanged(_ count: Int) { handle(.outboxChanged(count)) }

    private func courierRetries(at date: Date) { handle(.retryScheduled(at: date)) }

    /// Translates a player event into the machine's input about the song (ticket) the
    /// item was created for; the machine decides whether that song still matters.
    private func playerEvent(_ event: AudioPlayerEvent) {
        switch event {
        case .started(let item, let duration):
            if let ticket = tickets[item] { handle(.playerStarted(ticket, duration: duration)) }
        case .progress(let item, let position):
            if let ticket = tickets[item] { handle(.playerProgress(ticket, position)) }
        case .duration(let item, let seconds):
            if let ticket = tickets[item] { handle(.playerDuration(ticket, seconds)) }
        case .recovering(let item, let attempt, let most):
            if let ticket = tickets[item] { handle(.playerRecovering(ticket, attempt: attempt, of: most)) }
        case .recovered(let item):
            if let ticket = tickets[item] { handle(.playerRecovered(ticket)) }
        case .finished(let item, let reason):
            // An item finishes once: its ticket is not needed after this.
            if let ticket = tickets.removeValue(forKey: item) { handle(.playerFinished(ticket, reason)) }
        case .paused:
            // The position saved on pause is the one playback stopped at.
            refreshPosition()
            handle(.playerPaused)
        case .resumed:
            handle(.playerResumed)
        case .volume(let percent):
            handle(.playerVolume(percent))
        }
    }

    /// Feeds the player's exact position to the machine as a progress report about the
    /// item's song; the machine stays pure and ignores it unless that song is current.
    private func refreshPosition() {
        guard let live = player.position, let ticket = tickets[live.item] else { return }
        handle(.playerProgress(ticket, live.seconds))
    }

    /// Feeds `input` to the machine and performs its effects. An input that performing an
    /// effect produces (a load the player refused) waits until every effect of the current
    /// input is done, so effects always run in the order the machine meant them.
    private func handle(_ input: RadioInput) {
        pendingInputs.append(input)
        guard !handling else { return }
        handling = true
        while !pendingInputs.isEmpty {
            for effect in machine.handle(pendingInputs.removeFirst()) { perform(effect) }
        }
        handling = false
        let snapshot = machine.snapshot
        if snapshot != lastSnapshot {
            lastSnapshot = snapshot
            onSnapshot(snapshot)
        }
    }

    // MARK: - Effects

    private func load(_ track: Track, at start: Double, ticket: PlayTicket) {
        do {
            tickets[try player.load(track.url, startAt: start, gain: track.gain)] = ticket
        } catch {
            handle(.playerFinished(ticket, .failed(error)))
        }
    }

    /// Writes `report` to the outbox; nil (and the failure narrated) when that failed: the
    /// courier then keeps it in memory and writes it at its next try.
    private func keep(_ report: Report) -> Int64? {
        guard let store else { return nil }
        do throws(StorageFailure) {
            return try store.keepReport(report)
        } catch {
            storageFailed(error)
            return nil
        }
    }

    private func storageFailed(_ error: StorageFailure) {
        switch error {
        case .diskFull(let reason): eventContinuation.yield(.error(.diskFull(reason)))
        case .failed(let words): eventContinuation.yield(.error(.storage(words)))
        }
    }

    private func perform(_ effect: RadioEffect) {
        switch effect {
        case .fetch(let id, let report):
            let service = self.service, courier = self.courier
            Task {
                do throws(ServiceFailure) {
                    let tracks = try await service.send(report)
                    self.answered(id, tracks)
                    await courier.kick()
                } catch {
                    self.handle(.failed(requestID: id, error))
                }
            }
        case .deliver(let id, let report):
            // A song downloaded from a plain URL is no station's: its feedback stays here.
            guard report.channel != SongSource.offlineChannel.id else { return }
            // Written here, in the same turn, so the outbox holds the report before the
            // like or trash it carries is narrated (a kill -9 after the event keeps it).
            courierInbox.yield((report, id, keep(report)))
        case .play(let track, let startAt, let ticket):
            load(track, at: startAt, ticket: ticket)
        case .queueNext(let track, let startAt, let ticket):
            do {
                tickets[try player.queueNext(track.url, startAt: startAt, gain: track.gain)] = ticket
            } catch {
                // Not queued: the machine loads the song when its turn comes.
                handle(.playerFinished(ticket, .failed(error)))
            }
        case .clearQueued: player.clearQueued()
        case .advancePlayer(let track, let startAt, let ticket):
            do {
                tickets[try player.advance()] = ticket
            } catch {
                // The player had nothing queued after all (it moved on by itself a moment
                // ago): load the song the radio means.
                load(track, at: startAt, ticket: ticket)
            }
        case .pausePlayer: player.pause()
        case .resumePlayer: player.resume()
        case .seek(let target): player.seek(target)
        case .setVolume(let percent): player.setVolume(percent)
        case .stopPlayer: player.stop()
        case .emit(let event):
            eventContinuation.yield(event)
        case .savePosition(let position):
            do throws(StorageFailure) { try store?.savePosition(position) } catch { storageFailed(error) }
        case .saveChannel(let id):
            do throws(StorageFailure) { try store?.setSetting(RadioSettingKey.lastChannel, id) } catch { storageFailed(error) }
        case .scheduleRetry(let nominal, let token):
            let delay = retry.jittered(nominal)
            handle(.retryScheduled(at: Date().addingTimeInterval(delay)))
            let clock = self.clock
            Task {
                try? await clock.sleep(seconds: delay)
                self.handle(.retryTimer(token: token))
            }
        case .fetchDownloads(let id):
            let tracks = downloads?.offlineTracks() ?? []
            // Answered in a later turn, as a station's answer would be: the effects of this
            // input (a report, a stop) go first.
            Task { self.answered(id, tracks) }
        case .download(let track, let channel):
            downloads?.download(track, channel: channel)
        case .controlDownload(let action, let id):
            downloads?.control(action, id: id)
        case .rememberTrashed(let sid):
            downloads?.trashed(sid: sid)
        case .beginListen(let id, let track, let channel):
            guard let listens else { return }
            do throws(StorageFailure) {
                listenKeys[id] = try listens.began(track, channel: channel, at: Date())
            } catch {
                storageFailed(error)
            }
            refreshHistory()
        case .endListen(let id, let listened, let outcome, let liked):
            guard let listens, let key = listenKeys.removeValue(forKey: id) else { return }
            do throws(StorageFailure) {
                try listens.left(key: key, listened: listened, outcome: outcome, liked: liked)
            } catch {
                storageFailed(error)
            }
            refreshHistory()
        case .markListen(let sid, let liked):
            guard let listens else { return }
            do throws(StorageFailure) { try listens.markLiked(sid: sid, liked) } catch { storageFailed(error) }
            refreshHistory()
        case .scheduleSleep(let delay, let token, let left):
            handle(.sleepScheduled(at: Date().addingTimeInterval(left)))
            let clock = self.clock
            Task {
                try? await clock.sleep(seconds: delay)
                self.handle(.sleepTimer(token: token))
            }
        case .listHistory(let limit):
            eventContinuation.yield(.history(history(limit: RadioCommand.historyCount(limit))))
        case .quit:
            quitRequested = true
            playerTask?.cancel()
            courierInbox.finish()
            let courier = self.courier
            Task { await courier.stop() }
            eventContinuation.finish()
            for waiter in quitWaiters { waiter.resume() }
            quitWaiters.removeAll()
        }
    }
}
