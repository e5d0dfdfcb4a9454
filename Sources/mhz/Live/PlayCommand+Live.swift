import Adapters
import Companions
import Foundation
import Logging
import Playback
import Radio
import Settings
import TerminalUI

extension PlayCommand {
    /// `mhz --live <channel>`: the channel's broadcast through libmpv, headless or in the
    /// terminal UI, until `quit`, SIGINT or SIGTERM.
    ///
    /// The broadcast is the station's (`mhz serve`'s, or the embedded station's, which
    /// then serves on a loopback port of its own, since mpv reads HLS over HTTP).
    func listenLive(to channelID: String, settings: (paths: Paths, config: Config)) async throws(CLIError) {
        if !headless, !TerminalApp.isSupported {
            throw .runtime("no terminal to draw on (stdin/stdout are not a terminal, or TERM is unset): use --headless")
        }
        let keymap: Keymap
        do {
            keymap = try Keymap(overrides: settings.config.keys)
        } catch {
            throw .configKeys(settings.config.path, line: settings.config.keyLines[error.action], ErrorText.describe(error))
        }
        let playerOptions = Self.livePlayerOptions(audioOutput: audioOutput, config: settings.config)
        let startingPlayer = Task.detached { try PlayerController(options: playerOptions) }
        let runtime: RadioRuntime
        do {
            runtime = try await RadioRuntime.make(options: global, library: library, settings: settings)
        } catch {
            (try? await startingPlayer.value)?.shutdown()
            throw error
        }
        let frontEnd: any FrontEnd = headless
            ? HeadlessFrontEnd()
            : TerminalFrontEnd(keymap: keymap, login: nil, variety: nil, logFile: runtime.paths.logFile)
        let relay = SessionRelay(nil)
        let commands = CommandPump(session: relay)
        let logger = Logger(label: "mhz")
        let trap = SignalTrap { signal in
            logger.info("signal \(signal): quitting")
            commands.send(.quit)
        }
        do throws(CLIError) {
            let first: LiveTarget
            let tuned: Result<LiveTarget, ServiceFailure>
            do {
                tuned = try await Self.tuneIn(channelID, runtime: runtime)
            } catch {
                (try? await startingPlayer.value)?.shutdown()
                throw error
            }
            switch tuned {
            case .success(let target): first = target
            case .failure(let refusal):
                (try? await startingPlayer.value)?.shutdown()
                throw .runtime(Self.refusalText(channelID, refusal, server: runtime.serverName))
            }
            // `live <other id>` hands on to that broadcast; without a radio behind it,
            // `radio` is refused by the session, so nothing else comes next. A broadcast the
            // station refuses after the hand-over is one line, and the channel left plays on.
            var current = first
            var ending = try await Self.listen(to: first, runtime: runtime, player: startingPlayer,
                                               options: playerOptions, frontEnd: frontEnd, relay: relay,
                                               commands: commands, frontEndStarted: false, control: nil,
                                               returnsToRadio: false, sleep: sleep.flatMap(SleepTime.seconds))
            while case .live(let channel) = ending.next {
                frontEnd.showCover(nil)
                frontEnd.clearAlert()
                var target = current
                switch try await Self.tuneIn(channel.id, runtime: runtime, onScreen: frontEnd) {
                case .success(let tuned): target = tuned
                case .failure(let refusal): frontEnd.alert(.liveRefused(channel.id, refusal), logger: logger)
                }
                current = target
                var options = playerOptions
                options.initialVolume = ending.volume
                let next = options
                let player = Task.detached { try PlayerController(options: next) }
                ending = try await Self.listen(to: target, runtime: runtime, player: player, options: next,
                                               frontEnd: frontEnd, relay: relay, commands: commands,
                                               frontEndStarted: true, control: nil, returnsToRadio: false,
                                               sleep: Self.secondsLeft(until: ending.sleepEnds))
            }
        } catch {
            await runtime.shutdown()
            throw error
        }
        await runtime.shutdown()
        withExtendedLifetime(trap) {}
    }

    /// What comes after a listening (the radio's, or a live channel's).
    enum Listening: Equatable {
        /// The radio, on this channel (nil: the one it played last, as mhz starts).
        case radio(String?)
        /// This channel's broadcast.
        case live(ChannelInfo)
        /// Nothing: mhz ends.
        case quit
    }

    /// How a live channel's listening ended: what comes next, and the volume it was left at.
    struct LiveEnding {
        /// `quit`, another broadcast (`live <id>`), or the radio (`radio`, a channel chosen).
        var next: Listening
        /// The volume heard last, for what comes next.
        var volume: Int
        /// When the sleep timer runs out, if one is set: it goes on in what comes next.
        var sleepEnds: Date?
    }

    /// The player's settings for a broadcast: the radio's, and FFmpeg's HLS demuxer told to
    /// start at the playlist's first segment.
    static func livePlayerOptions(audioOutput: String?, config: Config) -> PlayerOptions {
        var options = Self.playerOptions(audioOutput: audioOutput ?? config.audioOutput, video: false,
                                         volume: config.volume ?? Config.defaultVolume,
                                         http: RadioRuntime.httpConfiguration(config), streamTimeout: config.streamTimeout)
        // FFmpeg's HLS demuxer starts a live playlist three segments from its end unless
        // told otherwise; the session opens the broadcast at the moment it wants (begintime)
        // and counts positions from that segment, so playback must start at the first one.
        options.extraOptions.append(("demuxer-lavf-o", "allowed_extensions=ALL,live_start_index=0"))
        return options
    }

    /// Listens to `target`'s broadcast until `quit`, `live <other id>` or (when
    /// `returnsToRadio`) `radio`: `mhz --live`, or the radio after `live <id>` handed its
    /// front end, pump, control socket (`control`) and runtime over (`frontEndStarted`). The
    /// player is the one `player` starts; it is shut down here, the runtime is not. A front
    /// end started here, or handed over, is stopped here at `quit`, and when the player
    /// cannot start. A control socket opened here is closed here; one handed over is left open.
    /// `sleep` starts the sleep timer with that many seconds left.
    static func listen(to target: LiveTarget, runtime: RadioRuntime, player startingPlayer: Task<PlayerController, any Error>,
                       options playerOptions: PlayerOptions, frontEnd: any FrontEnd, relay: SessionRelay,
                       commands: CommandPump, frontEndStarted: Bool, control handed: ControlServer?,
                       returnsToRadio: Bool, sleep: Double?) async throws(CLIError) -> LiveEnding {
        let controller: PlayerController
        let (station, channel, channels) = (target.station, target.channel, target.channels)
        do {
            controller = try await startingPlayer.value
        } catch {
            if frontEndStarted { frontEnd.stop() }
            throw .runtime("cannot start the player (libmpv): \(error) — check --audio-output and the audio_output setting")
        }
        let logger = Logger(label: "mhz")
        let player = MpvAudioPlayer(controller: controller, recoveryAttempts: playerOptions.recovery.maxAttempts)
        // What follows the listening beside the front end, as it follows the radio: the
        // control socket, MPRIS and notifications, the hook. No scrobbling: a broadcast heard
        // is no song chosen to play.
        let control = handed ?? Self.liveControl(runtime.paths, logger: logger)
        let desktop = DesktopLink(mpris: runtime.config.mpris, notify: runtime.config.notify)
        let observers = RadioObservers(control: control, hooks: RadioObservers.hooks(runtime))
        let session = LiveSession(channel: channel, station: station, player: player, volume: playerOptions.initialVolume,
                                  channels: channels, returnsToRadio: returnsToRadio, onSnapshot: { snapshot in
                                      frontEnd.show(snapshot)
                                      desktop.show(snapshot)
                                  })
        logger.info("listening to channel \(channel.id) live from \(station.base.absoluteString)")
        let narration = Task { () -> Listening in
            var next = Listening.quit
            for await event in session.events {
                frontEnd.narrate(event, logger: logger)
                observers.narrate(event)
                switch event {
                case .livePlaying(let track, _, _): desktop.songStarted(track, cover: nil)
                case .goingLive(let target):
                    relay.detach()
                    next = .live(target)
                case .goingRadio(let id):
                    relay.detach()
                    next = .radio(id)
                default: break
                }
            }
            return next
        }
        await relay.attach(session)
        if !frontEndStarted { frontEnd.start(commands: commands) }
        desktop.start(commands: commands)
        let answers = ControlAnswers(pump: commands, session: session)
        control?.start { answers.reply(to: $0) }
        // A sleep timer goes on from where it was (`--sleep`, or the radio's), before tuning in.
        if let sleep { await session.send(.sleep(sleep)) }
        await session.start()
        await session.waitUntilQuit()
        observers.stop(closingControl: handed == nil)
        desktop.stop()
        let next = await narration.value
        if next == .quit { frontEnd.stop() }
        controller.shutdown()
        let left = await session.snapshot()
        return LiveEnding(next: next, volume: left.volume, sleepEnds: left.sleepEnds)
    }

    /// The control socket, as the radio has it (`mhz ctl` works the same); without it when
    /// another mhz holds this data directory's socket (a live listening keeps nothing in the
    /// database, so two may run), which the log says.
    private static func liveControl(_ paths: Paths, logger: Logger) -> ControlServer? {
        do throws(ControlError) {
            return try ControlServer(path: paths.controlSocket.path)
        } catch {
            logger.notice("no control socket: \(ControlText.describe(error, dataDirectory: paths.dataDirectory.path))")
            return nil
        }
    }

    /// Where the broadcast is: `--server`, or the embedded station served on loopback.
    private static func liveBase(_ runtime: RadioRuntime) async throws(CLIError) -> URL {
        guard let embedded = runtime.station else { return runtime.baseURL }
        do {
            return try await embedded.start()
        } catch {
            throw .runtime(StationErrorText.describe(error))
        }
    }

    /// A broadcast the station answered for: where to ask, the channel as the station lists
    /// it, and the list.
    struct LiveTarget {
        /// The station's live endpoints, asked as this listener.
        let station: LiveStationHTTP
        /// The channel.
        let channel: ChannelInfo
        /// Every channel the station lists (for `live <id>` from here).
        let channels: [ChannelInfo]
    }

    /// Asks the station for `id`'s broadcast before anything plays. Its refusal (a channel it
    /// does not broadcast: 404; a station gone: the failure) is the result's failure, for the
    /// caller to stop on (`mhz --live`) or to go back from (after a hand-over).
    /// - Throws: when there is no station to ask (the embedded one does not start); a front
    ///   end already on screen (`onScreen`) is stopped first, as mhz ends.
    static func tuneIn(_ id: String, runtime: RadioRuntime,
                       onScreen: (any FrontEnd)? = nil) async throws(CLIError) -> Result<LiveTarget, ServiceFailure> {
        let base: URL
        do {
            base = try await Self.liveBase(runtime)
        } catch {
            onScreen?.stop()
            throw error
        }
        let station = LiveStationHTTP(base: base, http: runtime.http)
        do throws(ServiceFailure) {
            _ = try await station.window(channel: id, from: nil)
        } catch {
            return .failure(error)
        }
        let channels = (try? await runtime.stationClient().channels()) ?? []
        return .success(LiveTarget(station: station, channel: channels.first { $0.id == id } ?? ChannelInfo(id: id, name: id),
                                   channels: channels))
    }

    /// The one line `mhz --live` stops with when the station (`server`, as the listener named
    /// it) refuses the channel. mhz exits then, so a failing station is worded as for one
    /// command of the command line, which the listener runs again, not as for the radio.
    static func refusalText(_ id: String, _ refusal: ServiceFailure, server: String) -> String {
        if refusal == .httpStatus(404) {
            return "\(server) has no live broadcast of channel \(id): it broadcasts its public channels only "
                + "(`mhz channels` lists them; not 0 nor -3)"
        }
        return "cannot listen to channel \(id) live: " + ErrorText.describe(refusal, for: .command(server: server))
    }
}
