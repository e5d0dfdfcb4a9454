/// Pause, seek, volume and mute.
extension PlayerController {
    /// Pauses; `.paused` follows unless already paused.
    public func pause() throws(PlaybackError) { try handle.set(.pause, flag: true) }

    /// Resumes; `.resumed` follows unless already playing.
    public func resume() throws(PlaybackError) { try handle.set(.pause, flag: false) }

    /// Pauses when playing, resumes when paused.
    /// - Returns: true if the player is paused afterwards.
    @discardableResult
    public func togglePause() throws(PlaybackError) -> Bool {
        let paused = !(handle.flag(.pause) ?? false)
        try handle.set(.pause, flag: paused)
        return paused
    }

    /// Whether the player is paused (false once shut down).
    public var isPaused: Bool { handle.flag(.pause) ?? false }

    /// Seeks to an absolute position, precisely. The next `progress` in the streams after
    /// this call (in stream order, not by when the consumer reads it) reports where it landed.
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
    /// after the seek, which a consumer that is behind cannot find by time: progress sent
    /// before the seek may still be waiting in the stream when the call returns.
    ///
    /// - Returns: how many events the `events` stream had been given when the seek took
    ///   hold. The first `progress` of the playing item after that many is where it landed.
    /// - Throws: `.commandFailed` when nothing is playing yet or the stream cannot seek.
    @discardableResult
    func seek(_ target: SeekTarget) throws(PlaybackError) -> Int {
        let arguments = switch target {
        case .absolute(let seconds): [MPVArgument.number(seconds), MPVArgument.absoluteExact]
        case .relative(let seconds): [MPVArgument.number(seconds), MPVArgument.relativeExact]
        }
        // Until mpv begins the seek, time-pos changes still describe the old position; the
        // translator drops them so the next progress is the new one. The loop sends under
        // the same lock, so every event after `sent` was translated with the gate in place.
        let sent = loop.withTranslator { translator, sent in
            translator.noteSeekRequested()
            return sent
        }
        do {
            try handle.command(.seek, arguments)
        } catch {
            loop.withTranslator { translator, _ in translator.noteSeekFailed() }
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

    /// The current volume in percent (the last known one once shut down).
    public var volume: Int {
        guard let level = handle.double(.volume) else { return lastVolume.withLock { $0 } }
        let rounded = Int(level.rounded())
        lastVolume.withLock { $0 = rounded }
        return rounded
    }

    /// Mutes or unmutes without touching the volume; `.muted` follows if it changed.
    public func setMuted(_ muted: Bool) throws(PlaybackError) { try handle.set(.mute, flag: muted) }

    /// Whether the output is muted (false once shut down).
    public var isMuted: Bool { handle.flag(.mute) ?? false }
}
