import Adapters
import ArgumentParser
import Companions
import Settings
import Downloads
import Foundation
import HTTP
import Logging
import Playback
import Radio
import Store
import TerminalUI

/// `mhz [--channel ID] [--headless] …`: play a channel, with the terminal UI or headless.
struct PlayCommand: AsyncParsableCommand {
    /// The subcommand's name and summary (it is also the default subcommand).
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play a channel (the default).")

    /// `--server`, `--api`, `--data-dir`, `--config`.
    @OptionGroup var global: GlobalOptions

    /// The channel to play. Parsed unconditionally: the red-heart channel's id, -3, would
    /// otherwise read as an option.
    @Option(parsing: .unconditional, help: "Channel id to play (default: the last one, else 0; -3 is the red-heart channel).")
    var channel: String?

    /// A live channel to listen to: the station's broadcast instead of a list of songs.
    @Option(name: .customLong("live"), parsing: .unconditional,
            help: "Listen to this channel's live broadcast, with everyone else (←/→ look back, e back to live).")
    var live: String?

    /// Commands on stdin and JSON events on stdout instead of the terminal UI.
    @Flag(help: "No terminal UI: commands on stdin, one JSON event per line on stdout.")
    var headless = false

    /// mpv's `ao`; wins over the config's `audio_output`.
    @Option(name: .customLong("audio-output"), help: "mpv audio output (ao), e.g. null, pulse, alsa; pcm records the session into ./audiodump.wav (16-bit stereo, 44.1 kHz).")
    var audioOutput: String?

    /// The embedded station's music folder; wins over the config's `library`.
    @Option(help: "Music folder for the embedded station (default ~/Music, else a demo library).")
    var library: String?

    /// The sleep timer to start with: `90s`, `30m`, `1h`.
    @Option(help: ArgumentHelp(CommandWord.sleepEffect.prefix(1).uppercased() + CommandWord.sleepEffect.dropFirst() + "."))
    var sleep: String?

    /// Refuses a sleep time that is not one.
    func validate() throws {
        if live != nil, channel != nil {
            throw ValidationError("--live names the channel to listen to: give --live or --channel, not both")
        }
        if let sleep, SleepTime.seconds(sleep) == nil {
            throw ValidationError("--sleep takes a time like \(CommandWord.sleepTimes), not \"\(sleep)\"")
        }
    }

    /// Show video in mpv's window (needs an X11 or Wayland display).
    @Flag(help: "Open mpv's video window for items that have video.")
    var video = false

    /// Plays until `quit`, SIGINT or SIGTERM; a failure before playback is one line on
    /// stderr and exit status 1.
    func run() async throws {
        do {
            try await play()
        } catch {
            throw error.exit()
        }
    }

    /// Checks what can be checked before anything starts, then wires the layers: runtime
    /// (station, HTTP), database, player, radio session, front end, signal trap.
    private func play() async throws(CLIError) {
        if video {
            // Before mpv is created: without a display its own probing takes seconds and may
            // "play" video nowhere (see VideoDisplay).
            do throws(PlaybackError) {
                try VideoDisplay.require(in: ProcessInfo.processInfo.environment)
            } catch {
                throw .runtime("--video needs a graphical display, but neither DISPLAY nor WAYLAND_DISPLAY is set: "
                    + "run mhz inside an X11 or Wayland session, or drop --video to listen without picture")
            }
        }
        if !headless, !TerminalApp.isSupported {
            throw .runtime("no terminal to draw on (stdin/stdout are not a terminal, or TERM is unset): use --headless")
        }
        let settings = try RadioRuntime.settings(options: global)
        if let live {
            return try await listenLive(to: live, settings: settings)
        }
        let keymap: Keymap
        do {
            keymap = try Keymap(overrides: settings.config.keys)
        } catch {
            throw .configKeys(settings.config.path, line: settings.config.keyLines[error.action], ErrorText.describe(error))
        }
        // The control socket first: a second mhz on this data directory stops here, before
        // it starts a player; the socket file goes when play() returns, however it returns.
        let paths = settings.paths
        let control: ControlServer
        do throws(ControlError) {
            control = try ControlServer(path: paths.controlSocket.path)
        } catch {
            throw .runtime(ControlText.describe(error, dataDirectory: paths.dataDirectory.path))
        }
        defer { control.stop() }
        let volume = settings.config.volume ?? Config.defaultVolume
        let playerOptions = Self.playerOptions(audioOutput: audioOutput ?? settings.config.audioOutput, video: video,
                                               volume: volume, http: RadioRuntime.httpConfiguration(settings.config),
                                               streamTimeout: settings.config.streamTimeout)
        // libmpv starts (tens of milliseconds: its options, audio chain, threads) while the
        // station does; neither needs the other until the first song is loaded.
        let startingPlayer = Task.detached { try PlayerController(options: playerOptions) }
        let runtime: RadioRuntime
        do {
            // libmpv takes FFmpeg's log as it starts (beside the station, which scans its library
            // before it measures a song), so the sound analysis' FFmpeg warnings go to libmpv's
            // log rather than to standard error.
            runtime = try await RadioRuntime.make(options: global, library: library, settings: settings,
                                                  analysesSound: true)
        } catch {
            (try? await startingPlayer.value)?.shutdown()
            throw error
        }
        let logger = Logger(label: "mhz")
        let database: MhzDatabase
        var replacedDatabase: RadioError?
        do {
            database = try DatabaseOpening.open(runtime.paths) { replacedDatabase = $0 }
        } catch {
            (try? await startingPlayer.value)?.shutdown()
            await runtime.shutdown()
            throw error
        }
        let controller: PlayerController
        do {
            controller = try await startingPlayer.value
        } catch {
            await runtime.shutdown()
            throw .runtime("cannot start the player (libmpv): \(error) — check --audio-output and the audio_output setting")
        }
        let service = runtime.stationClient()
        // The terminal UI logs in with a dialog; headless, `login` stays a command-line job.
        let dialog = headless ? nil : DialogLogin(runtime: runtime, session: service.session,
                                                  logger: Logger(label: "mhz.login"))
        let frontEnd: any FrontEnd = headless
            ? HeadlessFrontEnd()
            : TerminalFrontEnd(keymap: keymap, login: dialog, variety: service.variety, logFile: runtime.paths.logFile)
        // The terminal UI clears the line stderr got: the status line says it again.
        if let replacedDatabase { frontEnd.alert(replacedDatabase, logger: logger) }
        // The network seam notices an expired login; the listener hears it once, while
        // playback goes on anonymously.
        service.session.onExpired { frontEnd.alert(.service(.expired), logger: logger) }
        var radio = RadioMachine.Configuration()
        if let minutes = runtime.config.longItemMinutes { radio.longItemSeconds = minutes * 60 }
        // Lyrics: each line as it is reached, to the front end and the control socket.
        let lyrics = LyricFollower(service: service, nudges: LyricNudges(database: database, station: runtime.sessionKey),
                                   lineChanged: { change in
            let line = EventJSON.lyric(change)
            frontEnd.lyric(change, line: line)
            control.broadcast(line)
        }, sheetChanged: { sid, sheet in frontEnd.lyrics(SongLyrics(sid: sid, sheet: sheet)) })
        logger.info("playing from \(runtime.serverName)")

        // `live <id>` (the channel list's L) ends the radio for a broadcast, `radio` ends that
        // for the radio again; the pump drives whichever session is listened to (SessionRelay).
        let relay = SessionRelay(nil)
        let commands = CommandPump(session: relay) { command in
            lyrics.nudge(by: command == .lyricsEarlier ? 0.5 : -0.5)
        }
        let trap = SignalTrap { signal in
            logger.info("signal \(signal): quitting")
            commands.send(.quit)
        }
        let run = RadioRun(runtime: runtime, database: database, service: service, frontEnd: frontEnd, dialog: dialog,
                           control: control, relay: relay, commands: commands, lyrics: lyrics, configuration: radio,
                           recoveryAttempts: playerOptions.recovery.maxAttempts)
        do throws(CLIError) {
            try await listen(run, controller: controller, volume: volume, options: playerOptions)
        } catch {
            await runtime.shutdown()
            throw error
        }
        await runtime.shutdown()
        withExtendedLifetime(trap) {}
    }

    /// The radio, and what it hands over to: a live channel after `live <id>`, another after
    /// `live <other id>` there, the radio again after `radio` (on the channel it played, or
    /// the one chosen) or when the station refuses the broadcast, until `quit`. The same
    /// screen (or stdin), pump and signal trap go on throughout, from the same runtime (no
    /// second scan); each stretch starts at the volume and with the sleep timer the last one
    /// was left at.
    private func listen(_ run: RadioRun, controller first: PlayerController, volume configured: Int,
                        options radioOptions: PlayerOptions) async throws(CLIError) {
        var next = Listening.radio(channel ?? run.runtime.config.channel)
        var volume = configured
        var radioChannel: String?
        var controller: PlayerController? = first
        var frontEndStarted = false
        // Why the radio is back without `radio`: said once it plays again.
        var refused: RadioError?
        // The sleep timer's time left, carried from one listening to the next.
        var sleepLeft = sleep.flatMap(SleepTime.seconds)
        while true {
            switch next {
            case .quit:
                return
            case .radio(let id):
                var options = radioOptions
                options.initialVolume = volume
                let player: PlayerController
                if let controller {
                    player = controller
                } else {
                    do {
                        player = try await Task.detached { [options] in try PlayerController(options: options) }.value
                    } catch {
                        run.frontEnd.stop()
                        throw .runtime("cannot start the player (libmpv): \(error) — check --audio-output and the audio_output setting")
                    }
                }
                controller = nil
                if frontEndStarted { run.frontEnd.clearAlert() }
                if let refusal = refused { run.frontEnd.alert(refusal, logger: Logger(label: "mhz")) }
                refused = nil
                let ending = await run.play(channelID: id ?? radioChannel, controller: player, volume: volume,
                                            sleep: sleepLeft, frontEndStarted: frontEndStarted)
                frontEndStarted = true
                radioChannel = ending.left.channel?.id
                volume = ending.left.volume
                sleepLeft = Self.secondsLeft(until: ending.left.sleepEnds)
                next = ending.live.map { .live($0) } ?? .quit
            case .live(let channel):
                run.frontEnd.showCover(nil)
                run.frontEnd.clearAlert()
                let target: LiveTarget
                switch try await Self.tuneIn(channel.id, runtime: run.runtime, onScreen: run.frontEnd) {
                case .success(let tuned): target = tuned
                case .failure(let refusal):
                    // The radio handed over for a broadcast the station then refused (gone,
                    // or no longer broadcasting it): one line, and the radio plays again.
                    refused = .liveRefused(channel.id, refusal)
                    next = .radio(nil)
                    continue
                }
                var options = Self.livePlayerOptions(audioOutput: audioOutput, config: run.runtime.config)
                options.initialVolume = volume
                let live = options
                let player = Task.detached { try PlayerController(options: live) }
                let ending = try await Self.listen(to: target, runtime: run.runtime, player: player, options: live,
                                                   frontEnd: run.frontEnd, relay: run.relay, commands: run.commands,
                                                   frontEndStarted: true, control: run.control, returnsToRadio: true,
                                                   sleep: sleepLeft)
                volume = ending.volume
                sleepLeft = Self.secondsLeft(until: ending.sleepEnds)
                next = ending.next
            }
        }
    }
}

extension PlayCommand {
    /// The seconds a sleep timer ending at `ends` has left (a timer due already runs out at
    /// once), nil for none.
    static func secondsLeft(until ends: Date?) -> Double? {
        ends.map { max(0.001, $0.timeIntervalSinceNow) }
    }

    /// The audio output that records instead of playing: mpv's `pcm`, into ``recordingFile``.
    static let recordingOutput = "pcm"
    /// Where mpv's `pcm` output writes, in the working directory (its default name).
    static let recordingFile = "audiodump.wav"

    /// The player's settings: the audio output and volume asked for, video if asked, and for
    /// media requests the same User-Agent the API requests send, as a plain string.
    ///
    /// No cookies and no other headers: mpv's `http-header-fields` go with every media
    /// request to whatever host the song's URL names (often a CDN, not the station), so the
    /// web family's session cookie would leak there. Douban's media links carry their own
    /// time-limited hash in the path (docs/PROTOCOL.md §4.2, the song's `url`) and need no
    /// cookie. The probe for refused links sends the same and no more (``CurlMediaProbe``).
    /// `streamTimeout` (config `stream_timeout`) is mpv's `network-timeout`; nil keeps the
    /// player's default.
    static func playerOptions(audioOutput: String?, video: Bool, volume: Int, http: HTTPConfiguration,
                              streamTimeout: Double? = nil) -> PlayerOptions {
        var options = PlayerOptions(audioOutput: audioOutput, video: video, userAgent: http.userAgent,
                                    initialVolume: volume, statusProbe: CurlMediaProbe(configuration: http))
        if let streamTimeout { options.networkTimeout = streamTimeout }
        if audioOutput == Self.recordingOutput {
            // mpv's pcm output writes as fast as it decodes, so the radio runs ahead of its
            // playlists and mpv goes idle between songs; each time it opens its output again
            // it would start its file over, header and all. So the file gets one WAV header
            // of mhz's, and mpv appends bare samples in the one format the header names.
            options.extraOptions += [("ao-pcm-file", Self.recordingFile), ("ao-pcm-waveheader", "no"),
                                     ("ao-pcm-append", "yes"), ("audio-format", "s16"),
                                     ("audio-samplerate", String(RecordingHeader.sampleRate)),
                                     ("audio-channels", "stereo")]
            _ = FileManager.default.createFile(atPath: Self.recordingFile, contents: RecordingHeader.bytes)
        }
        return options
    }
}
