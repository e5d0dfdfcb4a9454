import Dispatch
import Foundation
import Logging
import MusicLibrary
import Synchronization
import Transcoder

/// The songs of one run of a broadcast, for ``LiveEncoder`` on the broadcast's thread:
/// drawn from the channel's recommender a list at a time (as one listener, the channel's),
/// each noted with the sample it starts at so the segments can be titled and the songs
/// aired dated.
final class LiveSongFeed: LiveAudioSource {
    /// A song the encoder was given, and where it starts on the run's sample clock.
    struct Started {
        /// The track.
        var track: LibraryTrack
        /// Its first sample.
        var sample: Int64
    }

    private let channel: String
    private let songs: @Sendable (String, [String]) async -> [LibraryTrack]
    private let logger: Logger
    private var queue: [LibraryTrack] = []
    /// The songs given and not yet handed to ``started(before:)``.
    private var pending: [Started] = []
    /// The labels of the songs handed on, the last few: a segment's title.
    private var labels: [(sample: Int64, label: String)] = []
    /// The sid of the song the encoder plays now (the last one it was given).
    private(set) var current: String?
    /// The sids played lately, so the next list does not repeat them.
    private var recent: [String]

    init(channel: String, recent: [String], songs: @escaping @Sendable (String, [String]) async -> [LibraryTrack],
         logger: Logger) {
        self.channel = channel
        self.recent = recent
        self.songs = songs
        self.logger = logger
    }

    /// The next song, from the current list or a new one.
    func nextInput(startingAt sample: Int64) -> URL? {
        if queue.isEmpty {
            queue = draw()
        }
        guard !queue.isEmpty else { return nil }
        let track = queue.removeFirst()
        pending.append(Started(track: track, sample: sample))
        current = track.sid
        recent.append(track.sid)
        if recent.count > 20 { recent.removeFirst(recent.count - 20) }
        return track.file
    }

    /// A file that cannot be played is logged and passed over.
    func inputFailed(_ file: URL, error: TranscodeError) {
        logger.warning("live song skipped", metadata: ["channel": .string(channel), "file": .string(file.path),
                                                       "error": .string("\(error)")])
        if let last = pending.last, last.track.file == file {
            pending.removeLast()
        }
    }

    /// The songs that start before sample `end` and were not handed on yet.
    func started(before end: Int64) -> [Started] {
        let due = pending.prefix { $0.sample < end }
        pending.removeFirst(due.count)
        for song in due {
            let label = song.track.artist.isEmpty ? song.track.title : "\(song.track.artist) - \(song.track.title)"
            labels.append((song.sample, label))
        }
        if labels.count > 4 { labels.removeFirst(labels.count - 4) }
        return Array(due)
    }

    /// The title of a segment from `start` to `end`: the song under way at its start, else
    /// the first that starts in it (call after ``started(before:)``).
    func label(at start: Int64, before end: Int64) -> String {
        labels.last { $0.sample <= start }?.label ?? labels.first { $0.sample < end }?.label ?? ""
    }

    /// A list from the recommender, waited for on this thread (it is the broadcast's own,
    /// not one of the cooperative pool's).
    private func draw() -> [LibraryTrack] {
        let result = Mutex<[LibraryTrack]>([])
        let done = DispatchSemaphore(value: 0)
        let songs = self.songs
        let channel = self.channel
        let recent = self.recent
        Task {
            let list = await songs(channel, recent)
            result.withLock { $0 = list }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }
}
