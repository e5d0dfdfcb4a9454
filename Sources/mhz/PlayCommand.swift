import ArgumentParser
import Foundation
import Logging
import Playback
import Radio
import Store
import TerminalUI

/// `mhz [--channel ID] [--headless] …`: play a channel, with the terminal UI or headless.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play a channel (the default).")

    @OptionGroup var global: GlobalOptions

    // Unconditional: the red-heart channel's id, -3, would otherwise read as an option.
    @Option(parsing: .unconditional, help: "Channel id to play (default: the last one, else 0; -3 is the red-heart channel).")
    var channel: String?

    @Flag(help: "No terminal UI: commands on stdin, one JSON event per line on stdout.")
    var headless = false

    @Option(name: .customLong("audio-output"), help: "mpv audio output (ao), e.g. null, pulse, alsa.")
    var audioOutput: String?

    @Option(help: "Music folder for the embedded station (default ~/Music, else a demo library).")
    var library: String?

    @Flag(help: "Open mpv's video window for items that have video.")
    var video = false

    func run() async throws {
        do {
            try await play()
        } catch {
            throw error.exit()
        }
    }

    private func play() async throws(CLIError) {
        if video, ProcessInfo.processInfo.environment["DISPLAY"] == nil,
           ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil {
            throw .runtime("--video needs a display, but neither DISPLAY nor WAYLAND_DISPLAY is set: drop --video")
        }
        if !headless, !TerminalApp.isSupported {
            throw .runtime("no terminal to draw on (stdin/stdout are not a terminal, or TERM is unset): use --headless")
        }
        let settings = try RadioRuntime.settings(options: global)
        let keymap: Keymap
        do {
            keymap = try Keymap(overrides: settings.config.keys)
        } catch {
            throw .configKeys(settings.config.path, line: settings.config.keyLines[error.action], ErrorText.describe(error))
        }
        let runtime = try await RadioRuntime.make(options: global, library: library, settings: settings)
        let logger = Logger(label: "mhz")
        let database: MhzDatabase
        do {
            database = try MhzDatabase(path: runtime.paths.database)
        } catch {
            await runtime.shutdown()
            throw .runtime("cannot open \(runtime.paths.database.path): \(error) — check the data directory")
        }
        let volume = runtime.config.volume ?? 100
        let controller: PlayerController
        let playerOptions = PlayerOptions(audioOutput: audioOutput ?? runtime.config.audioOutput, video: video,
                                          initialVolume: volume)
        do {
            controller = try PlayerController(options: playerOptions)
        } catch {
            await runtime.shutdown()
            throw .runtime("cannot start the player (libmpv): \(error)")
        }
        let player = MpvAudioPlayer(controller: controller, recoveryAttempts: playerOptions.recovery.maxAttempts)
        let service = runtime.stationClient()
        // The terminal UI logs in with a dialog; headless, `login` stays a command-line job.
        let dialog = headless ? nil : DialogLogin(runtime: runtime, session: service.session,
                                                  logger: Logger(label: "mhz.login"))
        let frontEnd: any FrontEnd = headless ? HeadlessFrontEnd() : TerminalFrontEnd(keymap: keymap, login: dialog)
        // The network seam notices an expired login; the listener hears it once, while
        // playback goes on anonymously.
        service.session.onExpired { frontEnd.alert(.service(.expired), logger: logger) }
        var radio = RadioMachine.Configuration()
        if let minutes = runtime.config.longItemMinutes { radio.longItemSeconds = minutes * 60 }
        let session = RadioSession(service: service, player: player, store: database, configuration: radio, volume: volume,
                                   onSnapshot: { frontEnd.show($0) })
        // After a login in the dialog, the next request carries it; a fetch waiting out a
        // failure (the red-heart channel refused to nobody) goes again at once.
        dialog?.onLoggedIn {
            frontEnd.clearAlert()
            Task { await session.sessionChanged() }
        }
        logger.info("playing from \(runtime.baseURL.absoluteString)")

        let commands = CommandPump(session: session)
        let trap = SignalTrap { signal in
            logger.info("signal \(signal): quitting")
            commands.send(.quit)
        }
        let narration = Task {
            for await event in session.events { frontEnd.narrate(event, logger: logger) }
        }
        frontEnd.start(commands: commands)
        await session.start(channelID: channel ?? runtime.config.channel)
        await session.waitUntilQuit()
        frontEnd.stop()
        await narration.value
        controller.shutdown()
        await runtime.shutdown()
        withExtendedLifetime(trap) {}
    }
}

/// Delivers commands to the session one at a time, in the order they were given, from any
/// thread (stdin reader, UI thread, signal queue).
final class CommandPump: Sendable {
    private let continuation: AsyncStream<RadioCommand>.Continuation
    private let task: Task<Void, Never>

    init(session: RadioSession) {
        let (stream, continuation) = AsyncStream<RadioCommand>.makeStream(bufferingPolicy: .unbounded)
        self.continuation = continuation
        task = Task {
            for await command in stream { await session.send(command) }
        }
    }

    func send(_ command: RadioCommand) { continuation.yield(command) }

    deinit { continuation.finish() }
}
