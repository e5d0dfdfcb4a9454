import Foundation
import Radio
import Synchronization

/// Follows the song playing and finds its cover's local file (``CoverCache``) for those that
/// show it: the terminal UI and MPRIS hear of every change (no cover at once when the song
/// changes, the file when it is there), the notification once per song, with the cover if
/// it came within ``notificationWait``.
final class CoverFollower: Sendable {
    /// How long a song's notification waits for a cover being fetched.
    static let notificationWait = Duration.milliseconds(1500)

    private let cache: CoverCache
    private let coverChanged: @Sendable (Track?, URL?) -> Void
    private let songStarted: @Sendable (Track, URL?) -> Void
    /// The song followed (sid and picture: a like changes the track, not its cover) and a
    /// count that tells a late answer for an earlier song from the current one.
    private let current = Mutex<(key: String?, generation: Int, announced: Bool)>((nil, 0, false))

    /// A follower resolving covers through `cache`. `coverChanged` gets the song and its
    /// cover file (nil: none, or not yet); `songStarted` once per song.
    init(cache: CoverCache, coverChanged: @escaping @Sendable (Track?, URL?) -> Void,
         songStarted: @escaping @Sendable (Track, URL?) -> Void) {
        self.cache = cache
        self.coverChanged = coverChanged
        self.songStarted = songStarted
    }

    /// A new snapshot: when its song is another one, look for its cover.
    func show(_ snapshot: RadioSnapshot) {
        let track = snapshot.track
        let key = track.map { "\($0.sid)\n\($0.picture)" }
        let generation = current.withLock { state -> Int? in
            guard state.key != key else { return nil }
            state.key = key
            state.generation += 1
            state.announced = false
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

    /// The song's notification, once: with the cover when it came first, else without.
    private func announce(_ track: Track, file: URL?, generation: Int) {
        let first = current.withLock { state -> Bool in
            guard state.generation == generation, !state.announced else { return false }
            state.announced = true
            return true
        }
        if first { songStarted(track, file) }
    }
}
