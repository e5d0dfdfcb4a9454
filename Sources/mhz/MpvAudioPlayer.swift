import Playback
import Radio

/// The radio's ``AudioPlayer`` over the libmpv ``PlayerController``: translates the
/// player's events and errors into the radio's vocabulary. The player knows URLs and
/// seconds; only here do they meet the radio.
final class MpvAudioPlayer: AudioPlayer {
    let controller: PlayerController
    let events: AsyncStream<PlayerEvent>
    private let pump: Task<Void, Never>

    init(controller: PlayerController) {
        self.controller = controller
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .unbounded)
        events = stream
        let source = controller.events
        pump = Task {
            for await event in source {
                if let mapped = Self.map(event) { continuation.yield(mapped) }
            }
            continuation.finish()
        }
    }

    deinit { pump.cancel() }

    func load(_ url: String, startAt: Double) throws(PlayerFailure) -> PlayerItemID {
        do {
            return PlayerItemID(try controller.load(url, startAt: startAt).rawValue)
        } catch {
            throw .loadFailed(Self.words(error))
        }
    }

    // Control commands fail only when mpv is gone or nothing is loaded; the radio learns
    // of either through the event stream, so the errors carry nothing it could act on.
    func pause() { try? controller.pause() }
    func resume() { try? controller.resume() }
    func stop() { try? controller.stop() }
    func setVolume(_ percent: Int) { try? controller.setVolume(percent) }

    func seek(_ target: RadioCommand.Seek) {
        switch target {
        case .absolute(let seconds): try? controller.seek(to: seconds)
        case .relative(let seconds): try? controller.seek(by: seconds)
        }
    }

    static func map(_ event: PlaybackEvent) -> PlayerEvent? {
        switch event {
        case .started(let item, let duration): .started(PlayerItemID(item.rawValue), duration: duration)
        case .progress(let item, let position): .progress(PlayerItemID(item.rawValue), position: position)
        case .duration(let item, let seconds): .duration(PlayerItemID(item.rawValue), seconds)
        case .paused: .paused
        case .resumed: .resumed
        case .volume(let percent): .volume(percent)
        case .finished(let item, let reason): .finished(PlayerItemID(item.rawValue), endReason(reason))
        case .shutdown: nil
        }
    }

    static func endReason(_ reason: EndReason) -> PlayerEndReason {
        switch reason {
        case .eof: .eof
        case .stopped: .stopped
        case .error(let words): .failed(.loadFailed(words))
        }
    }

    static func words(_ error: PlaybackError) -> String { "\(error)" }
}
