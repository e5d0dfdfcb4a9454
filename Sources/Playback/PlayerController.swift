import Foundation
import Synchronization

/// Plays URLs through one libmpv instance: commands go in as methods, everything that
/// happens comes out of `events`. It knows URLs and seconds, never
/// songs or channels.
///
/// All methods may be called from any thread or task. Each call is a synchronous libmpv
/// call that returns in well under a millisecond to a few milliseconds (mpv opens media on
/// its own threads). After `shutdown()` every command throws `PlaybackError.shutDown`.
public final class PlayerController: Sendable {
    /// The one mpv instance; commands go to it directly (libmpv is thread-safe).
    let handle: MPVHandle
    /// The thread draining mpv's events; its lock also orders the controller's commands
    /// against the events they cause (see `MPVEventLoop.withTranslator`).
    let loop: MPVEventLoop
    private let channels: EventChannels
    /// The last volume set or read, for `volume` once the handle is gone.
    let lastVolume: Mutex<Int>

    /// Creates and starts an idle mpv instance.
    /// - Throws: `.noDisplay` if `options.video` is set and there is no display;
    ///   `.creationFailed` if libmpv cannot start; `.optionRejected` for an option
    ///   (including `extraOptions`) mpv does not accept.
    public convenience init(options: PlayerOptions = PlayerOptions()) throws(PlaybackError) {
        if options.video { try VideoDisplay.require(in: ProcessInfo.processInfo.environment) }
        try self.init(checkedOptions: options)
    }

    /// Creates the player without the display check (tests of the video path use it).
    init(checkedOptions options: PlayerOptions) throws(PlaybackError) {
        let handle = try MPVHandle()
        for setting in options.mpvSettings { try handle.setOption(setting.name, setting.value) }
        try handle.initialize()
        // The HTTP status of a refused URL and the signs of a broken connection exist only as
        // log lines (see StreamLogClassifier); warn is the quietest level that has them all.
        try handle.requestLogMessages(level: "warn")
        // Read the starting state before observing it; see PlaybackEventTranslator.init.
        let volume = handle.double(.volume).map { Int($0.rounded()) }
            ?? PlayerOptions.clampVolume(options.initialVolume)
        let translator = PlaybackEventTranslator(paused: handle.flag(.pause) ?? false, volume: volume,
                                                 muted: handle.flag(.mute) ?? false, policy: options.recovery,
                                                 probesStatus: options.statusProbe != nil,
                                                 untimedOutput: options.writesUntimed)
        for property in MPVProperty.allCases { try handle.observe(property) }
        // On a throw above, MPVHandle.deinit destroys the handle: no loop is running yet.
        let channels = EventChannels()
        self.handle = handle
        self.channels = channels
        self.lastVolume = Mutex(volume)
        self.loop = MPVEventLoop(handle: handle, translator: translator, channels: channels, probe: options.statusProbe)
        loop.start()
    }

    /// Shuts down if the owner did not.
    deinit { shutdown() }

    // MARK: - Streams

    /// Everything the player reports (see `PlaybackEvent` for the promises), in mpv's
    /// order, buffered without limit so nothing is lost if the consumer falls behind; it
    /// finishes after `.shutdown`. Iterate it from one task. Created on first access, and
    /// it also receives what happened before that.
    public var events: AsyncStream<PlaybackEvent> { channels.events }

    // MARK: - Loading

    /// Plays `url` (http(s), a local path, an HLS playlist…) from `startAt` seconds,
    /// replacing whatever was playing, loading or queued. `gain` (dB; nil or under a tenth
    /// of a dB: none) is applied to this item's audio alone, before the volume, and again
    /// by every reload a recovery makes of it (see `MPVHandle.fileOptions(startAt:gain:)`).
    /// - Returns: the new item's id; its `started`/`finished` events carry it. The item it
    ///   replaced and a queued item, if any, get `finished(_, .stopped)` first.
    /// - Throws: `.commandFailed` if mpv refuses the command. A URL that cannot be fetched
    ///   or decoded is not an error here: it ends with `finished(id, …)`.
    @discardableResult
    public func load(_ url: String, startAt: Double = 0, gain: Double? = nil) throws(PlaybackError) -> PlaybackItemID {
        // Registering inside the translator's lock means the loop cannot see START_FILE of
        // this entry before the translator knows the entry is ours.
        try loop.withTranslator { translator, _ throws(PlaybackError) in
            let entry = try handle.loadFile(url, flags: MPVArgument.replace, startAt: startAt, gain: gain)
            translator.noteLoad(entry, url: url, gain: gain)
            return PlaybackItemID(rawValue: entry)
        }
    }

    /// Stops playback and empties the playlist; the player stays usable. The item that was
    /// playing, loading, queued or being recovered gets `finished(_, .stopped)`.
    public func stop() throws(PlaybackError) {
        try loop.withTranslator { translator, _ throws(PlaybackError) in
            try handle.command(.stop)
            // An item mpv had not begun yet gets no event from mpv. Its finished(.stopped)
            // is sent when the reply to this no-op arrives: by then every event caused
            // before the stop has been handled. Should the no-op fail, the next load or the
            // shutdown still sends it.
            if let marker = translator.noteStop() {
                try? handle.commandAsync(.ignore, replyID: UInt64(marker))
            }
        }
    }

    // MARK: - State

    /// The current playback position in seconds; nil while idle, loading, or shut down.
    /// A direct property read (not the last `progress`), so it is exact at any moment: what
    /// a caller persisting positions should read on pause, quit and signals.
    public var position: Double? { handle.double(.timePosition) }

    /// The started item mpv plays now and its exact position (mpv's `time-pos`, read now):
    /// what a caller should use to answer "where are we?" and to save a position on quit,
    /// rather than the last `progress`, which may be up to `progressInterval` old.
    ///
    /// nil while nothing has started, while a recovery reloads the item, while a seek is on
    /// its way (`time-pos` still tells the old place), and while an END_FILE is being
    /// decided (mpv may already be on the next entry). Read under the translator's lock, so
    /// the item is the one the next events are about; mpv itself may have moved on a
    /// moment ago at a gapless hand-over, which the next `finished` then tells.
    public var currentPosition: (item: PlaybackItemID, seconds: Double)? {
        loop.withTranslator { translator, _ in
            guard let playing = translator.current, playing.started, translator.pendingEnd == nil,
                  !translator.seekPending, !translator.silenced.contains(playing.entry),
                  translator.recovery == nil || translator.recovery?.playing == true,
                  let seconds = handle.double(.timePosition)
            else { return nil }
            return (PlaybackItemID(rawValue: playing.item), seconds)
        }
    }

    /// The audio filters mpv applies to the file playing, as mpv writes its `af` property
    /// (`lavfi=graph=%13%volume=-6.2dB` for an item given −6.2 dB); empty when there are none, nil when
    /// mpv cannot tell. What a gain given to `load` or `queueNext` became.
    public var audioFilters: String? { handle.string(.audioFilters) }

    /// Quits mpv, waits for the event thread to send `.shutdown` and finish the streams, then
    /// destroys the handle. Idempotent; blocks for the few milliseconds mpv takes to quit.
    public func shutdown() {
        if case .began(quitAccepted: false) = handle.beginShutdown() {
            // No MPV_EVENT_SHUTDOWN will come: end the loop at its next wakeup instead.
            loop.requestStop()
            handle.wakeup()
        }
        loop.join()
        handle.destroy()
    }
}
