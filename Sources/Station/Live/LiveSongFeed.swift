import Dispatch
import Foundation
import Logging
import MusicLibrary
import Synchronization
import Transcoder

/// The songs of one run of a broadcast, for ``LiveEncoder`` on the broadcast's thread:
/// drawn from the channel's recommender a list at a time (as one listener, the channel's),
/// each noted with the sample it starts at so the segments can be titled, the songs aired
/// dated and each segment's ``LiveCue`` told. A run after a stop may begin with the song
/// that was on the air, from where it was (``Resumed``).
final class LiveSongFeed: LiveAudioSource {
    /// A song the encoder was given, and where it starts on the run's sample clock.
    struct Started {
        /// The track.
        var track: LibraryTrack
        /// Its first sample.
        var sample: Int64
        /// How far into the track that sample is, in milliseconds: 0 but for a song
        /// taken up again.
        var offset: Int64 = 0
    }

    /// The song the run begins with, part-way: the one on the air when the run before
    /// stopped.
    struct Resumed {
        /// The track.
        var track: LibraryTrack
        /// Where to take it up, in milliseconds from its start.
        var offset: Int64
        /// Whether it goes into the songs aired again (``started(before:)``): when the
        /// broadcast does not continue seamlessly, the part after the stop is aired anew.
        var airedAgain: Bool
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
    /// The song to begin with, until the encoder asks for its first.
    private var resuming: Resumed?
    /// The last songs given, where each starts and how far into it that is: what a
    /// segment's cue is told from.
    private var given: [Started] = []
    /// How far into the file just given playing starts, in seconds.
    private var startOffset: Double = 0

    init(channel: String, recent: [String], resuming: Resumed? = nil,
         songs: @escaping @Sendable (String, [String]) async -> [LibraryTrack], logger: Logger) {
        self.channel = channel
        self.recent = recent
        self.resuming = resuming
        self.songs = songs
        self.logger = logger
    }

    /// The next song: the one taken up again first, then from the current list or a new one.
    func nextInput(startingAt sample: Int64) -> URL? {
        if let resumed = resuming {
            resuming = nil
            let song = Started(track: resumed.track, sample: sample, offset: resumed.offset)
            if resumed.airedAgain {
                pending.append(song)
            } else {
                // Aired already: titles the segments without being aired twice.
                labels.append((sample, Self.label(of: resumed.track)))
            }
            return give(song)
        }
        if queue.isEmpty {
            queue = draw()
        }
        guard !queue.isEmpty else { return nil }
        let song = Started(track: queue.removeFirst(), sample: sample)
        pending.append(song)
        return give(song)
    }

    private func give(_ song: Started) -> URL {
        given.append(song)
        if given.count > 4 { given.removeFirst(given.count - 4) }
        startOffset = Double(song.offset) / 1000
        current = song.track.sid
        recent.append(song.track.sid)
        if recent.count > 20 { recent.removeFirst(recent.count - 20) }
        return song.track.file
    }

    /// How far into `file`, the song just given, playing starts.
    func startSeconds(of file: URL) -> Double {
        given.last?.track.file == file ? startOffset : 0
    }

    /// A file that cannot be played is logged and passed over.
    func inputFailed(_ file: URL, error: TranscodeError) {
        logger.warning("live song skipped", metadata: ["channel": .string(channel), "file": .string(file.path),
                                                       "error": .string("\(error)")])
        if let last = pending.last, last.track.file == file {
            pending.removeLast()
        }
        if let last = given.last, last.track.file == file {
            given.removeLast()
        }
    }

    /// Where the audio stands at sample `end` (a segment's end): the song under way and
    /// how far into it, as a ``LiveCue``.
    func cue(at end: Int64) -> LiveCue {
        guard let song = given.last(where: { $0.sample < end }) else { return LiveCue(clock: end, sid: nil, offset: 0) }
        let into = (end - song.sample) * 1000 / Int64(LiveEncoder.sampleRate)
        return LiveCue(clock: end, sid: song.track.sid, offset: song.offset + into)
    }

    /// The songs that start before sample `end` and were not handed on yet.
    func started(before end: Int64) -> [Started] {
        let due = pending.prefix { $0.sample < end }
        pending.removeFirst(due.count)
        for song in due {
            labels.append((song.sample, Self.label(of: song.track)))
        }
        if labels.count > 4 { labels.removeFirst(labels.count - 4) }
        return Array(due)
    }

    /// The title of a segment from `start` to `end`: the song under way at its start, else
    /// the first that starts in it (call after ``started(before:)``).
    func label(at start: Int64, before end: Int64) -> String {
        labels.last { $0.sample <= start }?.label ?? labels.first { $0.sample < end }?.label ?? ""
    }

    /// "artist - title", a segment's title.
    private static func label(of track: LibraryTrack) -> String {
        track.artist.isEmpty ? track.title : "\(track.artist) - \(track.title)"
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
