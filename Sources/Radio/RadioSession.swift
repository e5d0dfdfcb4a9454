import Foundation
import RadioAPI
import Store

/// Runs a ``RadioMachine``: feeds it commands, station answers and player events, and
/// performs the effects it returns through the ports (``RadioService``, ``AudioPlayer``,
/// ``ProgressStore``).
///
/// Reports run in their own tasks, so a skip never waits for the network: the next song
/// is loaded in the same turn as the skip, and the station's answer arrives later as an
/// input like any other.
public actor RadioSession {
    private var machine: RadioMachine
    private let service: any RadioService
    private let player: any AudioPlayer
    private let store: (any RadioStore)?
    private let courier: ReportCourier
    private let courierInbox: AsyncStream<(Report, Int)>.Continuation
    private let courierStream: AsyncStream<(Report, Int)>
    private var courierTask: Task<Void, Never>?
    private let onSnapshot: @Sendable (RadioSnapshot) -> Void
    /// The machine's ticket for each player item handed over by an effect.
    private var tickets: [PlayerItemID: PlayTicket] = [:]
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
    /// a front end would draw changed.
    public init(service: any RadioService, player: any AudioPlayer, store: (any RadioStore)?,
                configuration: RadioMachine.Configuration = .init(), volume: Int = 100,
                onSnapshot: @escaping @Sendable (RadioSnapshot) -> Void = { _ in }) {
        self.machine = RadioMachine(configuration: configuration, volume: volume)
        self.service = service
        self.player = player
        self.store = store
        self.onSnapshot = onSnapshot
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        courier = ReportCourier(service: service, store: store, delays: configuration.retryDelays)
        (courierStream, courierInbox) = AsyncStream<(Report, Int)>.makeStream(bufferingPolicy: .unbounded)
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
            courierTask = Task { [weak self] in
                for await (report, id) in inbox {
                    do throws(StoreError) {
                        try await courier.submit(report, requestID: id)
                    } catch {
                        await self?.storageFailed(error)
                        // Not stored, but still worth sending once.
                        await self?.deliverDirectly(report, id)
                    }
                }
            }
        }
        do throws(StoreError) {
            try await courier.start(
                outcome: { [weak self] id, result in await self?.courierOutcome(id, result) },
                onCount: { [weak self] count in await self?.outboxChanged(count) },
                onRetry: { [weak self] date in await self?.courierRetries(at: date) })
        } catch {
            storageFailed(error)
        }
        do {
            let channels = try await service.channels()
            handle(.channelsLoaded(channels))
        } catch {
            eventContinuation.yield(.error(.service(error)))
        }
        let remembered = (try? store?.setting(RadioSettingKey.lastChannel)) ?? nil
        let target = channelID ?? remembered ?? Channel.personalID
        // Restarting resumes the song that was playing, at its position, on its channel; if
        // its URL no longer works, the failure leads to a fresh list like any other.
        if let last = (try? store?.lastPosition()) ?? nil, last.channel == target, !last.url.isEmpty,
           !last.isFinished, last.position > 0 {
            let track = Track(sid: last.sid, title: last.title, artist: last.artist, album: last.album,
                              length: last.duration, url: last.url)
            handle(.resume(track, at: last.position, channelID: target))
        } else {
            handle(.start(channelID: target))
        }
    }

    /// Performs a command. `status` and `quit` first bring the machine's position up to
    /// the player's exact one, so the answer and the position saved on the way out (quit,
    /// SIGINT, SIGTERM) are where playback is, not where the last `progress` left it.
    public func send(_ command: RadioCommand) {
        if command == .status || command == .quit { refreshPosition() }
        handle(.command(command))
    }

    /// The listener logged in: requests carry the new session from now on (the service
    /// reads it per request); a fetch waiting out a failure is made again at once.
    public func sessionChanged() {
        handle(.sessionChanged)
    }

    /// What a front end would draw now.
    public func snapshot() -> RadioSnapshot { machine.snapshot }

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
            handle(.answered(requestID: id ?? 0, tracks: id == nil ? [] : tracks))
        case .failure(let failure):
            handle(.failed(requestID: id ?? 0, failure))
        }
    }

    private func outboxChanged(_ count: Int) { handle(.outboxChanged(count)) }

    private func courierRetries(at date: Date) { handle(.retryScheduled(at: date)) }

    private func deliverDirectly(_ report: Report, _ id: Int) async {
        do throws(ServiceFailure) {
            handle(.answered(requestID: id, tracks: try await service.send(report)))
        } catch {
            handle(.failed(requestID: id, error))
        }
    }

    /// Translates a player event into the machine's input about the song (ticket) the
    /// item was created for; the machine decides whether that song still matters.
    private func playerEvent(_ event: PlayerEvent) {
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

    /// Where a long item (a mix, an episode) was left, unless it was finished: such items
    /// resume whenever they are played again. The station's length decides what is long;
    /// when it gives none (0), the duration the player measured last time, as saved.
    private func longItemStart(_ track: Track) -> Double {
        guard let saved = (try? store?.position(sid: track.sid)) ?? nil, !saved.isFinished else { return 0 }
        let length = track.length > 0 ? track.length : saved.duration
        return length > machine.configuration.longItemSeconds ? saved.position : 0
    }

    private func load(_ track: Track, at start: Double, ticket: PlayTicket) {
        do {
            tickets[try player.load(track.url, startAt: start)] = ticket
        } catch {
            handle(.playerFinished(ticket, .failed(error)))
        }
    }

    private func storageFailed(_ error: StoreError) {
        let words: String
        switch error {
        case .cannotOpen(let path, let reason): words = "\(path): \(reason)"
        case .migrationFailed(let reason), .operationFailed(let reason): words = reason
        }
        eventContinuation.yield(.error(.storage(words)))
    }

    private func perform(_ effect: RadioEffect) {
        switch effect {
        case .send(let id, let report) where report.type.expectsList && report.type != .skip && report.type != .ban:
            // Fetches (`n`, `p`) are not kept: the machine asks again when one fails.
            let service = self.service, courier = self.courier
            Task {
                do throws(ServiceFailure) {
                    let tracks = try await service.send(report)
                    self.handle(.answered(requestID: id, tracks: tracks))
                    await courier.kick()
                } catch {
                    self.handle(.failed(requestID: id, error))
                }
            }
        case .send(let id, let report):
            // Feedback (`e r u s b`) goes through the outbox, in order, kept until delivered.
            courierInbox.yield((report, id))
        case .play(let track, let startAt, let ticket):
            load(track, at: startAt > 0 ? startAt : longItemStart(track), ticket: ticket)
        case .queueNext(let track, let ticket):
            do {
                tickets[try player.queueNext(track.url, startAt: longItemStart(track))] = ticket
            } catch {
                // Not queued: the machine loads the song when its turn comes.
                handle(.playerFinished(ticket, .failed(error)))
            }
        case .clearQueued: player.clearQueued()
        case .advancePlayer(let track, let ticket):
            do {
                tickets[try player.advance()] = ticket
            } catch {
                // The player had nothing queued after all (it moved on by itself a moment
                // ago): load the song the radio means.
                load(track, at: longItemStart(track), ticket: ticket)
            }
        case .pausePlayer: player.pause()
        case .resumePlayer: player.resume()
        case .seek(let target): player.seek(target)
        case .setVolume(let percent): player.setVolume(percent)
        case .stopPlayer: player.stop()
        case .emit(let event):
            eventContinuation.yield(event)
        case .savePosition(let position):
            do throws(StoreError) { try store?.savePosition(position) } catch { storageFailed(error) }
        case .saveChannel(let id):
            do throws(StoreError) { try store?.setSetting(RadioSettingKey.lastChannel, id) } catch { storageFailed(error) }
        case .scheduleRetry(let delay, let token):
            handle(.retryScheduled(at: Date().addingTimeInterval(delay)))
            Task {
                try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
                self.handle(.retryTimer(token: token))
            }
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
