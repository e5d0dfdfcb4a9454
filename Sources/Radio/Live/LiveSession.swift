import Foundation
import RadioAPI

/// Listening to a live channel (`mhz --live`): the station's broadcast played through the
/// player from a moment the session chose, so the air time of every position is known
/// (the stream starts at the segment holding that moment, its position 0). Now playing
/// follows the audio: the air time of the position heard matched against the programme
/// (`aired.json`). Moving back and forth within the look-back window, and back to the live
/// edge, opens the broadcast again from the moment wanted.
///
/// The same commands as the radio: `seek ±s` moves on the air, `seek s` within the song
/// heard, `live` goes back to the edge; `like`, `unlike`, `skip` and `trash` go to the
/// channel's feedback route about the song heard (a skip is a vote: the song ends for
/// everyone when most listeners vote).
///
/// A session listens to one thing, so it ends, as at `quit`, to listen to another: `live
/// <id>` of another channel the station lists live (``RadioEvent/goingLive(_:)``), and, when
/// the radio handed over to it, `radio` or a channel chosen (``RadioEvent/goingRadio(_:)``);
/// the composition root opens what comes next. The radio's own commands (downloads,
/// lyrics, the history, logging in) are refused as not applying here. The sleep timer is
/// the radio's (``SleepTimer``), its waits tasks of this session: it fades the broadcast to
/// silence and quits; the composition root carries the time it has left from the radio and
/// back.
public actor LiveSession: RadioControl {
    private let channel: ChannelInfo
    /// The station's channels, as the channel list shows them here.
    private let channels: [ChannelInfo]
    /// Whether the radio handed over to this session (`live <id>`), and so can take over again.
    private let returnsToRadio: Bool
    private let station: any LiveStation
    private let player: any AudioPlayer
    private let onSnapshot: @Sendable (RadioSnapshot) -> Void
    private let retryDelay: Duration
    private var state: LiveState = .idle
    private var timing: LiveTiming?
    private var aired: [AiredSong] = []
    private var airedReadAt: ContinuousClock.Instant?
    /// Each tuning's number: a later one supersedes one still waiting for the station.
    private var generation = 0
    private var volume: Int
    private var paused = false
    /// The songs liked in this session (the station keeps no hearts per live listener).
    private var liked: Set<String> = []
    /// The listener's vote on the song heard, as the station last counted it.
    private var vote: LiveTally?
    private var problem: RadioError?
    /// The sleep timer.
    private var sleepTimer = SleepTimer()
    /// Where `mute` goes back to.
    private var mute = MuteSwitch()
    /// The sleep timer's wait under way (cancelled when the timer is set again or the session ends).
    private var sleepWait: Task<Void, Never>?
    private var playerTask: Task<Void, Never>?
    private var quitWaiters: [CheckedContinuation<Void, Never>] = []
    private let eventContinuation: AsyncStream<RadioEvent>.Continuation

    /// What happened, in order: `livePlaying` at each song heard, errors, pauses, `status`.
    public nonisolated let events: AsyncStream<RadioEvent>

    /// A session on `channel` of `station`, played by `player`; `onSnapshot` gets every
    /// change of what a front end draws. After a failure the broadcast is tuned in again
    /// after `retryDelay`. `channels` is the station's list (the live ones can be switched
    /// to); `returnsToRadio` says that the radio handed over and `radio` goes back to it.
    public init(channel: ChannelInfo, station: any LiveStation, player: any AudioPlayer, volume: Int = 100,
                channels: [ChannelInfo] = [], returnsToRadio: Bool = false,
                retryDelay: Duration = .seconds(2), onSnapshot: @escaping @Sendable (RadioSnapshot) -> Void = { _ in }) {
        self.channel = channel
        self.channels = channels.isEmpty ? [channel] : channels
        self.returnsToRadio = returnsToRadio
        self.station = station
        self.player = player
        self.volume = volume
        self.retryDelay = retryDelay
        self.onSnapshot = onSnapshot
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Follows the player and tunes in at the live edge.
    public func start() async {
        if playerTask == nil {
            let events = player.events
            playerTask = Task { [weak self] in
                for await event in events { await self?.playerEvent(event) }
            }
        }
        eventContinuation.yield(.channel(channel))
        await tune(to: nil)
    }

    /// Returns once `quit` was handled.
    public func waitUntilQuit() async {
        if state == .quit { return }
        await withCheckedContinuation { quitWaiters.append($0) }
    }

    /// What a front end draws now.
    public func snapshot() -> RadioSnapshot {
        var snapshot = RadioSnapshot(channel: channel, paused: paused, volume: volume, channels: channels,
                                     problem: problem, loading: state.tuning == nil || current == nil)
        if case .playing(_, let moment, let song?) = state {
            snapshot.track = track(song)
            snapshot.position = max(0, Double(moment) - Double(song.start)) / 1000
            snapshot.duration = (Double(song.end) - Double(song.start)) / 1000
        }
        snapshot.live = LiveStatus(behind: behind ?? 0, vote: vote, returnsToRadio: returnsToRadio)
        snapshot.sleepEnds = sleepTimer.ends
        return snapshot
    }

    /// Handles a command of the radio's language.
    public func send(_ command: RadioCommand) async {
        guard state != .quit else { return }
        // The radio's own commands are told by ``RadioCommand/isRadioOnly`` alone.
        guard !command.isRadioOnly else { return fail(.notOnLive(command.word, returnsToRadio: returnsToRadio)) }
        switch command {
        case .quit:
            end()
        case .pause: player.pause()
        case .resume: player.resume()
        case .toggle: paused ? player.resume() : player.pause()
        case .volume(let percent):
            mute.volumeSet()
            player.setVolume(min(100, max(0, percent)))
        case .mute: player.setVolume(mute.toggle(volume: volume))
        case .status: eventContinuation.yield(.status(snapshot()))
        case .live: await tune(to: nil)
        case .liveChannel(let id) where id == channel.id: await tune(to: nil)
        case .liveChannel(let id):
            guard let target = channels.first(where: { $0.id == id }), target.live else { return fail(.notLive(id)) }
            eventContinuation.yield(.goingLive(target))
            end()
        case .radio:
            guard returnsToRadio else { return fail(.noRadio) }
            eventContinuation.yield(.goingRadio(nil))
            end()
        case .channel(let id):
            guard returnsToRadio else { return fail(.noRadio) }
            // The red-heart channel is the listener's own: the station does not list it.
            guard id == Channel.redHeartID || channels.contains(where: { $0.id == id }) else {
                return fail(.unknownChannel(id))
            }
            eventContinuation.yield(.goingRadio(id))
            end()
        case .seek(let target): await seek(target)
        case .like: await feedback(.rate)
        case .unlike: await feedback(.unrate)
        case .skip: await feedback(.skip)
        case .trash: await feedback(.ban)
        case .sleep(let seconds):
            sleepWait?.cancel()
            sleep(sleepTimer.set(seconds, volume: volume))
            publish()
        case .login, .logout, .download, .downloadControl, .lyricsEarlier, .lyricsLater, .history, .pastSong:
            // Refused above (isRadioOnly): named here only so that the compiler makes every
            // other command, and any new one, be handled above.
            break
        }
    }

    /// Stops the player and ends the events: `quit`, or the listening handed on.
    private func end() {
        state = .quit
        sleepWait?.cancel()
        generation += 1
        player.stop()
        eventContinuation.finish()
        quitWaiters.forEach { $0.resume() }
        quitWaiters = []
    }

    // MARK: - Sleep timer

    /// Does what the sleep timer asks: each wait a task that hands the timer its token back.
    private func sleep(_ steps: [SleepTimer.Step]) {
        for step in steps {
            switch step {
            case .setVolume(let level): player.setVolume(level)
            case .emit(let event): eventContinuation.yield(event)
            case .wait(let seconds, let token, let endsIn):
                sleepTimer.scheduled(ends: Date().addingTimeInterval(endsIn))
                sleepWait = Task { [weak self] in
                    do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
                    await self?.sleepFired(token)
                }
            case .runOut(let volume):
                // Put back before the end: what the next listening starts at.
                player.setVolume(volume)
                self.volume = volume
                end()
            }
        }
    }

    /// A wait of the sleep timer is over.
    private func sleepFired(_ token: Int) {
        guard state != .quit else { return }
        sleep(sleepTimer.fired(token: token, volume: volume))
    }

    // MARK: - Feedback

    /// The song as front ends show it, with its heart.
    private func track(_ song: AiredSong) -> Track {
        var track = song.track(channel: channel.id)
        track.liked = liked.contains(song.sid)
        return track
    }

    /// Sends the listener's word on the song heard and narrates what the station counted.
    private func feedback(_ type: ReportType) async {
        guard case .playing(_, _, let song?) = state else { return fail(.nothingPlaying) }
        let tally: LiveTally
        do {
            tally = try await station.feedback(channel: channel.id, type: type, sid: song.sid)
        } catch {
            return fail(.service(error))
        }
        switch type {
        case .rate:
            liked.insert(song.sid)
            eventContinuation.yield(.liked(track(song)))
        case .unrate:
            liked.remove(song.sid)
            eventContinuation.yield(.unliked(track(song)))
        case .ban:
            eventContinuation.yield(.trashed(track(song)))
            fallthrough
        default:
            // Only a vote on the song still heard is shown beside it.
            if current?.sid == song.sid, current?.start == song.start { vote = tally }
            eventContinuation.yield(.voted(track(song), type: type, tally))
        }
        publish()
    }

    // MARK: - Moving on the air

    /// The song heard, if the programme named it.
    private var current: AiredSong? {
        if case .playing(_, _, let song) = state { return song }
        return nil
    }

    /// Seconds behind the edge, once audio is heard and the edge known.
    private var behind: Double? {
        guard case .playing(_, let moment, _) = state, let timing else { return nil }
        return timing.behind(moment, at: .now)
    }

    private func seek(_ target: RadioCommand.Seek) async {
        guard case .playing(_, let moment, let song) = state else { return fail(.nothingPlaying) }
        let wanted: Int64
        switch target {
        case .relative(let seconds): wanted = LiveTiming.sum(moment, LiveTiming.milliseconds(seconds))
        case .absolute(let seconds):
            guard let song else { return fail(.nothingPlaying) }
            wanted = LiveTiming.sum(song.start, LiveTiming.milliseconds(max(0, seconds)))
        }
        // At or past the edge there is nothing newer to hear: the edge it is.
        if let timing, wanted >= timing.liveEdge(at: .now) { return await tune(to: nil) }
        await tune(to: wanted)
    }

    /// Opens the broadcast from the segment holding `moment`, or at the live edge (nil).
    private func tune(to moment: Int64?) async {
        generation += 1
        let mine = generation
        let window: LiveWindow
        do {
            window = try await station.window(channel: channel.id, from: moment)
        } catch {
            guard mine == generation, state != .quit else { return }
            fail(.service(error))
            if state.tuning == nil { retry(mine) }
            return
        }
        guard mine == generation, state != .quit else { return }
        timing = LiveTiming(window: window, readAt: .now)
        let base = moment == nil ? window.joinStart : window.firstStart
        do {
            let item = try player.load(station.streamURL(channel: channel.id, from: base), startAt: 0)
            state = .tuning(LiveTuning(item: item, base: base))
            problem = nil
        } catch {
            fail(.player(error))
            retry(mine)
        }
        publish()
    }

    /// Tunes in at the edge again after the retry delay, unless something else tuned meanwhile.
    private func retry(_ failed: Int) {
        let delay = retryDelay
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            await self?.retryIfStill(failed)
        }
    }

    private func retryIfStill(_ failed: Int) async {
        guard generation == failed, state != .quit else { return }
        await tune(to: nil)
    }

    // MARK: - The player

    private func playerEvent(_ event: AudioPlayerEvent) async {
        switch event {
        case .started(let item, _):
            guard case .tuning(let tuning) = state, tuning.item == item else { return }
            state = .playing(tuning, moment: tuning.base, song: nil)
            await follow(tuning, position: 0)
        case .progress(let item, let position):
            guard let tuning = state.tuning, tuning.item == item, case .playing = state else { return }
            await follow(tuning, position: position)
        case .paused:
            paused = true
            eventContinuation.yield(.paused(current.map(track)))
            publish()
        case .resumed:
            paused = false
            eventContinuation.yield(.resumed(current.map(track)))
            publish()
        case .volume(let percent):
            volume = percent
            publish()
        case .finished(let item, let reason):
            guard state.tuning?.item == item else { return }
            // A live stream has no end: whatever ended it, tune in again.
            if case .failed(let failure) = reason { fail(.player(failure)) }
            guard reason != .stopped else { return }
            state = .idle
            generation += 1
            retry(generation)
            publish()
        case .duration, .recovering, .recovered:
            break
        }
    }

    /// The audio is at `position` of the tuning's stream: its air time is matched against
    /// the programme, read again when the time has no song yet.
    private func follow(_ tuning: LiveTuning, position: Double) async {
        let moment = LiveTiming.sum(tuning.base, LiveTiming.milliseconds(position))
        let previous = current
        state = .playing(tuning, moment: moment, song: previous)
        var heard = AiredSong.heard(at: moment, in: aired)
        // The song on the air when the programme was read may have ended since (its `end`
        // moves on): read again, at most once a second, while the audio is in it or past
        // every song read.
        if heard?.onAir ?? true, airedReadAt.map({ ContinuousClock.now - $0 >= .seconds(1) }) ?? true {
            await readProgramme()
            heard = AiredSong.heard(at: moment, in: aired)
        }
        // Reading took a while: act only if the same stream still plays.
        guard case .playing(let now, let latest, _) = state, now == tuning else { return }
        state = .playing(tuning, moment: latest, song: heard ?? previous)
        if let heard, heard.sid != previous?.sid || heard.start != previous?.start {
            vote = nil
            eventContinuation.yield(.livePlaying(track(heard), channel: channel,
                                                 behind: behind ?? 0))
        }
        publish()
    }

    /// Reads `aired.json` and the live window (the edge moves on) again.
    private func readProgramme() async {
        airedReadAt = .now
        do {
            aired = try await station.aired(channel: channel.id)
            let window = try await station.window(channel: channel.id, from: nil)
            timing = LiveTiming(window: window, readAt: .now)
        } catch {
            fail(.service(error))
        }
    }

    private func fail(_ error: RadioError) {
        problem = error
        eventContinuation.yield(.error(error))
        publish()
    }

    private func publish() { onSnapshot(snapshot()) }
}
