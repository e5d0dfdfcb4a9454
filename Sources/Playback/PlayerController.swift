import Foundation
import Synchronization

/// Plays URLs through one libmpv instance: commands go in as methods, everything that
/// happens comes out of `events`. It knows URLs and seconds, never songs or channels.
///
/// All methods may be called from any thread or task. Each call is a synchronous libmpv
/// call that returns in well under a millisecond to a few milliseconds (mpv opens media on
/// its own threads). After `shutdown()` every command throws `PlaybackError.shutDown`.
public final class PlayerController: Sendable {
    /// Everything the player reports, in mpv's order (see `PlaybackEvent` for the promises).
    /// Buffered without limit, so nothing is lost if the consumer falls behind; it finishes
    /// after `.shutdown`. Iterate it from one task.
    public let events: AsyncStream<PlaybackEvent>

    private let handle: MPVHandle
    private let loop: MPVEventLoop
    /// The last volume set or read, for `volume` once the handle is gone.
    private let lastVolume: Mutex<Int>

    /// Creates and starts an idle mpv instance.
    /// - Throws: `.creationFailed` if libmpv cannot start, `.optionRejected` for an option
    ///   (including `extraOptions`) mpv does not accept.
    public init(options: PlayerOptions = PlayerOptions()) throws(PlaybackError) {
        let handle = try MPVHandle()
        for setting in options.mpvSettings { try handle.setOption(setting.name, setting.value) }
        try handle.initialize()
        // Read the starting state before observing it; see PlaybackEventTranslator.init.
        let volume = handle.double(.volume).map { Int($0.rounded()) }
            ?? PlayerOptions.clampVolume(options.initialVolume)
        let translator = PlaybackEventTranslator(paused: handle.flag(.pause) ?? false, volume: volume)
        for property in MPVProperty.allCases { try handle.observe(property) }
        // On a throw above, MPVHandle.deinit destroys the handle: no loop is running yet.
        let (stream, continuation) = AsyncStream.makeStream(of: PlaybackEvent.self)
        self.handle = handle
        self.events = stream
        self.lastVolume = Mutex(volume)
        self.loop = MPVEventLoop(source: handle.eventSource, translator: translator, continuation: continuation)
        loop.start()
    }

    /// Shuts down if the owner did not.
    deinit { shutdown() }

    /// Plays `url` (http(s), a local path, an HLS playlist…) from `startAt` seconds,
    /// replacing whatever was playing or loading.
    /// - Returns: the new item's id; its `started`/`finished` events carry it. The item it
    ///   replaced, if any, gets `finished(_, .stopped)` first.
    /// - Throws: `.commandFailed` if mpv refuses the command. A URL that cannot be fetched
    ///   or decoded is not an error here: it ends with `finished(id, .error(_))`.
    @discardableResult
    public func load(_ url: String, startAt: Double = 0) throws(PlaybackError) -> PlaybackItemID {
        var arguments = [(MPVArgument.url, url), (MPVArgument.flags, MPVArgument.replace)]
        if startAt > 0 {
            arguments.append((MPVArgument.options, "\(MPVArgument.start)=\(MPVArgument.number(startAt))"))
        }
        // Registering inside the translator's lock means the loop cannot see START_FILE of
        // this entry before the translator knows the entry is ours.
        return try loop.withTranslator { translator throws(PlaybackError) in
            let reply = try handle.command(.loadFile, named: arguments)
            // loadfile has replied {"playlist_entry_id": N} since mpv 0.33 (checked on 0.35.1).
            guard case .int64(let entry)? = reply[MPVArgument.playlistEntryID] else {
                throw .commandFailed(name: MPVCommand.loadFile.rawValue, message: "reply has no playlist_entry_id")
            }
            translator.noteLoad(entry)
            return PlaybackItemID(rawValue: entry)
        }
    }

    /// Pauses; `.paused` follows unless already paused.
    public func pause() throws(PlaybackError) { try handle.set(.pause, flag: true) }

    /// Resumes; `.resumed` follows unless already playing.
    public func resume() throws(PlaybackError) { try handle.set(.pause, flag: false) }

    /// Seeks to an absolute position, precisely. The next `progress` in `events` after this
    /// call (in stream order, not by when the consumer reads it) reports where it landed.
    /// - Throws: `.commandFailed` when nothing is playing yet or the stream cannot seek.
    public func seek(to seconds: Double) throws(PlaybackError) {
        try seek(.absolute(seconds))
    }

    /// Seeks relative to the current position (negative goes back).
    /// - Throws: `.commandFailed` when nothing is playing yet or the stream cannot seek.
    public func seek(by seconds: Double) throws(PlaybackError) {
        try seek(.relative(seconds))
    }

    /// Where `seek(_:)` goes.
    enum SeekTarget: Sendable, Equatable {
        /// Seconds from the start (`seek(to:)`).
        case absolute(Double)
        /// Seconds from the current position (`seek(by:)`).
        case relative(Double)
    }

    /// Seeks, precisely, and says where in `events` the seek took hold.
    ///
    /// "The next `progress` reports where it landed" means the next one *in the stream*
    /// after the seek, which a consumer that is behind cannot find by time: progress events
    /// sent before the seek may still be waiting in the stream when the call returns.
    ///
    /// - Returns: how many events the stream had been given when the seek took hold. The
    ///   first `progress` of the playing item after that many events is where it landed;
    ///   the ones before describe the old position.
    /// - Throws: `.commandFailed` when nothing is playing yet or the stream cannot seek.
    @discardableResult
    func seek(_ target: SeekTarget) throws(PlaybackError) -> Int {
        let arguments = switch target {
        case .absolute(let seconds): [MPVArgument.number(seconds), MPVArgument.absoluteExact]
        case .relative(let seconds): [MPVArgument.number(seconds), MPVArgument.relativeExact]
        }
        // Until mpv begins the seek, time-pos changes still describe the old position; the
        // translator drops them so the next progress is the new one. The loop yields under
        // the same lock, so every event after `sent` was translated with the gate in place.
        let sent = loop.withTranslatorCounting { translator, sent in
            translator.noteSeekRequested()
            return sent
        }
        do {
            try handle.command(.seek, arguments)
        } catch {
            loop.withTranslator { $0.noteSeekFailed() }
            throw error
        }
        return sent
    }

    /// Sets the volume, clamped to 0–100; `.volume` follows if it changed.
    public func setVolume(_ percent: Int) throws(PlaybackError) {
        let clamped = PlayerOptions.clampVolume(percent)
        try handle.set(.volume, double: Double(clamped))
        lastVolume.withLock { $0 = clamped }
    }

    /// Stops playback and empties the playlist; the player stays usable. The item that was
    /// playing or loading gets `finished(_, .stopped)`.
    public func stop() throws(PlaybackError) {
        try loop.withTranslator { translator throws(PlaybackError) in
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

    /// The current playback position in seconds; nil while idle, loading, or shut down.
    public var position: Double? { handle.double(.timePosition) }

    /// The current volume in percent (the last known one once shut down).
    public var volume: Int {
        guard let level = handle.double(.volume) else { return lastVolume.withLock { $0 } }
        let rounded = Int(level.rounded())
        lastVolume.withLock { $0 = rounded }
        return rounded
    }

    /// Quits mpv, waits for the event thread to send `.shutdown` and finish `events`, then
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
