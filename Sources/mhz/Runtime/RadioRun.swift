import Adapters
import Companions
import Downloads
import Foundation
import HTTP
import Logging
import Playback
import Radio
import RadioAPI
import StationLink
import Store

/// One stretch of the radio in `mhz` (the terminal UI or headless): from its start, on a
/// channel, to `quit` or to `live <id>`, which ends it as `quit` does (position saved,
/// reports out, downloads stopped) for the broadcast. A listener back from a live channel
/// (`radio`) starts a new stretch, as mhz starts: what it left is resumed.
///
/// What lasts the whole run of mhz is held here and shared by every stretch: the runtime
/// (the station, HTTP), the database, the station's client and its login, the front end, the
/// command pump and its relay, the control socket, the lyric follower. What a stretch
/// plays through (the player, the session, downloads, scrobbling, the desktop) is made for
/// it and ended with it.
struct RadioRun: Sendable {
    /// The runtime: paths, config, the embedded station.
    let runtime: RadioRuntime
    /// mhz's own database.
    let database: MhzDatabase
    /// The station's client, whose session outlives a stretch (a login stays).
    let service: StationClient
    /// The terminal UI or headless stdout.
    let frontEnd: any FrontEnd
    /// The terminal UI's login dialog.
    let dialog: DialogLogin?
    /// The control socket; opened before anything started, closed when mhz ends.
    let control: ControlServer
    /// Where commands go: the session of the stretch playing.
    let relay: SessionRelay
    /// Keys, stdin, the control socket and MPRIS send through it.
    let commands: CommandPump
    /// The lyrics of the song playing, line by line.
    let lyrics: LyricFollower
    /// The radio's settings (`long_item_minutes`).
    let configuration: RadioMachine.Configuration
    /// The player's recovery from broken streams.
    let recoveryAttempts: Int

    /// How a stretch ended: `live` names the channel `live <id>` went to (nil: `quit`);
    /// `left` is what the radio showed last (its channel, its volume).
    struct Ending {
        /// The channel whose broadcast comes next, or nil after `quit`.
        var live: ChannelInfo?
        /// The radio as it was left.
        var left: RadioSnapshot
    }

    /// Plays the radio on `channelID` (nil: the last one, else 0) through `controller` at
    /// `volume` until `quit` or `live <id>`; the player is shut down at the end. The front end
    /// is started here unless `frontEndStarted`, and stopped here unless the radio went
    /// live. `sleep` starts the sleep timer before the first song is asked for.
    func play(channelID: String?, controller: PlayerController, volume: Int, sleep: Double?,
              frontEndStarted: Bool) async -> Ending {
        let logger = Logger(label: "mhz")
        let frontEnd = self.frontEnd, lyrics = self.lyrics, commands = self.commands, relay = self.relay
        // `[radio] loudness`: each song at the gain its station gave it, or as it is.
        let player = MpvAudioPlayer(controller: controller, recoveryAttempts: recoveryAttempts,
                                    appliesGain: runtime.config.radio.loudness)
        let manager = DownloadSetup.manager(paths: runtime.paths, config: runtime.config, database: database)
        let downloads = RadioDownloads(manager: manager, database: database, station: runtime.sessionKey)
        // MPRIS and notifications, when there is a session bus.
        let desktop = DesktopLink(mpris: runtime.config.mpris, notify: runtime.config.notify)
        // Covers as local files (a station's are fetched without the session's cookies).
        let covers = CoverFollower(
            cache: CoverCache(directory: runtime.paths.coverDirectory,
                              http: HTTPClient(configuration: RadioRuntime.httpConfiguration(runtime.config))),
            coverChanged: { track, file in
                logger.debug("cover of \(track?.sid ?? "nothing"): \(file?.path ?? "none")")
                frontEnd.showCover(file)
                desktop.cover(track, file: file)
            },
            songStarted: { track, file in desktop.songStarted(track, cover: file) })
        let session = RadioSession(service: service, player: player, store: RadioDatabase(database), downloads: downloads,
                                   history: RadioHistory(database: database, station: runtime.sessionKey),
                                   configuration: configuration, volume: volume, onSnapshot: { snapshot in
                                       frontEnd.show(snapshot)
                                       covers.show(snapshot)
                                       lyrics.show(snapshot)
                                       desktop.show(snapshot)
                                   })
        // After a login in the dialog, the next request carries it; a fetch waiting out a
        // failure (the red-heart channel refused to nobody) goes again at once.
        dialog?.onLoggedIn {
            frontEnd.clearAlert()
            Task { await session.sessionChanged() }
        }
        // Scrobbling, when [scrobble] configures a service: what earlier runs left goes first.
        let scrobbler = Scrobbler(settings: runtime.config.scrobble, database: database,
                                  http: RadioRuntime.httpConfiguration(runtime.config))
        await scrobbler?.start()
        let observers = RadioObservers(control: control, hooks: RadioObservers.hooks(runtime), scrobbler: scrobbler)
        let likedDownloads = runtime.config.downloads.liked
        let narration = Task { () -> ChannelInfo? in
            var goingLive: ChannelInfo?
            for await event in session.events {
                frontEnd.narrate(event, logger: logger)
                observers.narrate(event)
                if case .goingLive(let channel) = event {
                    relay.detach()
                    goingLive = channel
                }
                // `[downloads] liked = true`: a like downloads the song.
                if likedDownloads, case .liked(let track) = event {
                    let playing = await session.snapshot().channel?.id ?? "0"
                    downloads.download(track, channel: track.channel ?? playing)
                }
            }
            return goingLive
        }
        do throws(DownloadError) {
            // Unfinished downloads of earlier runs continue beside the radio.
            try await manager.start()
        } catch {
            logger.error("downloads cannot start: \(DownloadText.describe(error))")
        }
        let following = await downloads.follow(session) { event in
            frontEnd.downloaded(event)
            observers.downloaded(event)
        }
        // A `quit` given while nothing listened (back from a live channel) ends this stretch
        // before it plays.
        let quitMeanwhile = await relay.attach(session)
        if !frontEndStarted { frontEnd.start(commands: commands) }
        desktop.start(commands: commands)
        let answers = ControlAnswers(pump: commands, session: session)
        control.start { answers.reply(to: $0) }
        if !quitMeanwhile {
            // The timer counts from the start, before the first song is even asked for.
            if let sleep { await session.send(.sleep(sleep)) }
            await session.start(channelID: channelID)
        }
        await session.waitUntilQuit()
        // The socket stays open for what comes next (a live channel's listening); mhz
        // closes it when it ends.
        observers.stop(closingControl: false)
        desktop.stop()
        let goingLive = await narration.value
        if goingLive == nil { frontEnd.stop() }
        await scrobbler?.stop()
        await manager.shutdown()
        await following.value
        controller.shutdown()
        return Ending(live: goingLive, left: await session.currentSnapshot())
    }
}
