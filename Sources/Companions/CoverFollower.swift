import Foundation
import Radio
import Synchronization

/// Follows the song playing and finds its cover's local file (``CoverCache``) for those that
/// show it: the terminal UI and MPRIS hear of every change (no cover at once when the song
/// changes, the file when it is there); the notification once per song, with the cover if
/// it came within ``notificationWait``, and once more (a replacement) if it came later.
public final class CoverFollower: Sendable {
    /// How long a song's notification waits for a cover being fetched.
    static let notificationWait = Duration.milliseconds(1500)

    private let cache: CoverCache
    private let coverChanged: @Sendable (Track?, URL?) -> Void
    private let songStarted: @Sendable (Track, URL?) -> Void
    /// Whether the current song's notification went out, and with its cover.
    private enum Announcement { case none, withoutCover, withCover }

    /// The song followed (sid and picture: a like changes the track, not its cover), a count
    /// that tells a late answer for an earlier song from the current one, and its
    /// notification so far.
    private let current = Mutex<(key: String?, generation: Int, announced: Announcement)>((nil, 0, .none))

    /// A follower resolving covers through `cache`. `coverChanged` gets the song and its
    /// cover file (nil: none, or not yet); `songStarted` once per song, and again when its
    /// cover arrives after the first call went without it.
    public init(cache: CoverCache, coverChanged: @escaping @Sendable (Track?, URL?) -> Void,
         songStarted: @escaping @Sendable (Track, URL?) -> Void) {
        self.cache = cache
        self.coverChanged = coverChanged
        self.songStarted = songStarted
    }

    /// A new snapshot: when its song is another one, look for its cover.
    public func show(_ snapshot: RadioSnapshot) {
        let track = snapshot.track
        let key = track.map { "\($0.sid)\n\($0.picture)" }
        let generation = current.withLock { state -> Int? in
            guard state.key != key else { return nil }
            state.key = key
            state.generation += 1
            state.announced = .none
            return state.generation
        }
        guard let generation else { return }
        coverChanged(track, nil)
        guard let track else { return }
        let cache = self.cache
        Task { [weak self] in
            try? await Task.sleep(for: Self.notificationWait)
            self?.announce(track, file: nil, generation: generation)
        }
        Task { [weak self] in
            let file = await cache.file(for: track)
            guard let self, self.isCurrent(generation) else { return }
            if file != nil { self.coverChanged(track, file) }
            self.announce(track, file: file, generation: generation)
        }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        current.withLock { $0.generation == generation }
    }

    /// The song's notification: the first with the cover if it came in time, else without
    /// and then once more with it.
    private func announce(_ track: Track, file: URL?, generation: Int) {
        let send = current.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            switch (state.announced, file) {
            case (.none, nil): state.announced = .withoutCover
            case (.none, _?), (.withoutCover, _?): state.announced = .withCover
            case (.withoutCover, nil), (.withCover, _): return false
            }
            return true
        }
        if send { songStarted(track, file) }
    }
}
