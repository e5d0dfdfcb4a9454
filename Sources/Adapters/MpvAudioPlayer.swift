import Playback
import Radio

/// The radio's ``AudioPlayer`` over the libmpv ``PlayerController``: translates the
/// player's events (``PlaybackEvent``) and errors into the radio's vocabulary
/// (``AudioPlayerEvent``). The player knows URLs and seconds; only here do they meet the radio.
public final class MpvAudioPlayer: AudioPlayer {
    /// The player it drives; the composition root shuts it down.
    public let controller: PlayerController
    /// The controller's events in the radio's vocabulary.
    public let events: AsyncStream<AudioPlayerEvent>
    /// Whether songs' gains reach mpv (`[radio] loudness`); false plays every song as it is.
    public let appliesGain: Bool
    private let pump: Task<Void, Never>

    /// - Parameters:
    ///   - recoveryAttempts: the controller's `RecoveryPolicy.maxAttempts`, so the radio can
    ///     say "attempt 2 of 4".
    ///   - appliesGain: whether a song's gain is applied (see `appliesGain`).
    public init(controller: PlayerController, recoveryAttempts: Int, appliesGain: Bool = true) {
        self.controller = controller
        self.appliesGain = appliesGain
        let (stream, continuation) = AsyncStream<AudioPlayerEvent>.makeStream(bufferingPolicy: .unbounded)
        events = stream
        let source = controller.events
        pump = Task {
            for await event in source {
                if let mapped = Self.map(event, recoveryAttempts: recoveryAttempts) { continuation.yield(mapped) }
            }
            continuation.finish()
        }
    }

    deinit { pump.cancel() }

    /// mpv's `loadfile … replace`, at no gain.
    public func load(_ url: String, startAt: Double) throws(PlayerFailure) -> AudioPlayerItemID {
        try load(url, startAt: startAt, gain: nil)
    }

    /// mpv's `loadfile … replace` with the song's gain as a filter of its own (unless
    /// `appliesGain` is off); a refusal by mpv itself (not by the server) is `loadFailed`.
    public func load(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID {
        do {
            return AudioPlayerItemID(try controller.load(url, startAt: startAt, gain: applied(gain)).rawValue)
        } catch {
            throw .loadFailed(Self.words(error))
        }
    }

    /// mpv's `loadfile … append-play`, at no gain.
    public func queueNext(_ url: String, startAt: Double) throws(PlayerFailure) -> AudioPlayerItemID {
        try queueNext(url, startAt: startAt, gain: nil)
    }

    /// mpv's `loadfile … append-play` with the song's gain (as `load`), prefetched while the
    /// current item plays.
    public func queueNext(_ url: String, startAt: Double, gain: Double?) throws(PlayerFailure) -> AudioPlayerItemID {
        do {
            return AudioPlayerItemID(try controller.queueNext(url, startAt: startAt, gain: applied(gain)).rawValue)
        } catch {
            throw .loadFailed(Self.words(error))
        }
    }

    /// The gain mpv gets: the song's, or none when levelling is off.
    private func applied(_ gain: Double?) -> Double? { appliesGain ? gain : nil }

    /// mpv's `playlist-next`; throws when nothing is queued (the radio then loads instead).
    public func advance() throws(PlayerFailure) -> AudioPlayerItemID {
        do {
            return AudioPlayerItemID(try controller.advance().rawValue)
        } catch {
            throw .loadFailed(Self.words(error))
        }
    }

    // Control commands fail only when mpv is gone or nothing is loaded; the radio learns
    // of either through the event stream, so the errors carry nothing it could act on.
    /// Takes the queued song back (mpv's `playlist-remove`).
    public func clearQueued() { try? controller.clearQueued() }
    /// mpv's `pause=yes`.
    public func pause() { try? controller.pause() }
    /// mpv's `pause=no`.
    public func resume() { try? controller.resume() }
    /// mpv's `stop`: nothing plays or is queued afterwards.
    public func stop() { try? controller.stop() }
    /// mpv's `volume`, clamped to 0–100.
    public func setVolume(_ percent: Int) { try? controller.setVolume(percent) }

    /// The controller's exact position of the item it plays (see
    /// `PlayerController.currentPosition`).
    public var position: AudioPlayerPosition? {
        controller.currentPosition.map { AudioPlayerPosition(item: Self.id($0.item), seconds: $0.seconds) }
    }

    /// Seeks the current item; a refusal (nothing loaded, a stream that cannot seek) changes
    /// nothing the radio could act on, as for the other controls.
    public func seek(_ target: RadioCommand.Seek) {
        switch target {
        case .absolute(let seconds): try? controller.seek(to: seconds)
        case .relative(let seconds): try? controller.seek(by: seconds)
        }
    }

    /// The radio's event for a player event; nil for what the radio does not use (tags,
    /// buffering, mute, video output, `gaveUp`, which a `finished` follows at once).
    public static func map(_ event: PlaybackEvent, recoveryAttempts: Int) -> AudioPlayerEvent? {
        switch event {
        case .started(let item, let duration): .started(id(item), duration: duration)
        case .progress(let item, let position): .progress(id(item), position: position)
        case .duration(let item, let seconds): .duration(id(item), seconds)
        case .recovering(let item, let attempt, _): .recovering(id(item), attempt: attempt, of: recoveryAttempts)
        case .recovered(let item, _): .recovered(id(item))
        case .paused: .paused
        case .resumed: .resumed
        case .volume(let percent): .volume(percent)
        case .finished(let item, let reason): .finished(id(item), endReason(reason))
        case .metadata, .buffering, .gaveUp, .muted, .videoOutputFailed, .shutdown: nil
        }
    }

    /// The radio's end reason: refused media and lost connections keep their own cases,
    /// because the radio treats them differently from other failures.
    public static func endReason(_ reason: FinishReason) -> AudioPlayerEndReason {
        switch reason {
        case .eof: .eof
        case .stopped: .stopped
        case .mediaUnavailable(let status): .failed(.mediaUnavailable(status: status))
        case .connectionLost: .failed(.connectionLost)
        // A lost or unopenable device: the radio pauses the song and says so, instead of
        // blaming the song (and the station) as for other failures.
        case .audioOutputFailed: .failed(.unavailable(reason.mpvWords ?? ""))
        case .error(let words): .failed(.loadFailed(words))
        }
    }

    private static func id(_ item: PlaybackItemID) -> AudioPlayerItemID { AudioPlayerItemID(item.rawValue) }

    /// The player's description of a command it refused, carried to the radio as is.
    public static func words(_ error: PlaybackError) -> String { "\(error)" }
}
