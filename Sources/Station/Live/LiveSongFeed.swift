import Dispatch
import Foundation
import Logging
import MusicLibrary
import Synchronization
import Transcoder

/// The songs of one run of a broadcast, for ``LiveEncoder`` on the broadcast's thread:
/// drawn from the channel's recommender a list at a time (as one listener, the channel's),
/// each given with its levelling gain and noted with the sample it starts at, so each
/// segment's ``LiveCue`` can be told, and with the middle of its fade in, where it takes
/// over the air: the segments' titles and the songs aired go by that. A run after a stop
/// may begin with the song that was on the air, from where it was (``Resumed``).
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
        /// How long it fades in, in samples (0: from its first sample at full level).
        var fadeIn: Int64 = 0

        /// The middle of its fade in: from there on it is the song on the air (titles the
        /// segments, starts in the songs aired).
        var titled: Int64 { sample + fadeIn / 2 }
    }

    /// A song given to the encoder and not yet started: it starts a crossfade later, or
    /// never (a file that cannot be played).
    private struct Offered {
        var track: LibraryTrack
        var input: LiveInput
        var offset: Int64
        /// Whether it goes into the songs aired (all but one taken up where the broadcast
        /// continues it seamlessly).
        var aired: Bool
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
    /// A track's levelling gain (dB), `nil` for none.
    private let gain: (LibraryTrack) -> Double?
    private let logger: Logger
    private var queue: [LibraryTrack] = []
    /// The songs given and not yet handed to ``started(before:)``.
    private var pending: [Started] = []
    /// The labels of the songs handed on, the last few: a segment's title.
    private var labels: [(sample: Int64, label: String)] = []
    /// The sid of the song the encoder plays now (the last one that started).
    private(set) var current: String?
    /// The sids played lately, so the next list does not repeat them.
    private var recent: [String]
    /// The song to begin with, until the encoder asks for its first.
    private var resuming: Resumed?
    /// The last songs given, where each starts and how far into it that is: what a
    /// segment's cue is told from.
    private var given: [Started] = []
    /// The song given and not yet started.
    private var offered: Offered?

    /// The songs of `channel`'s run, after `recent` sids, beginning with `resuming` if any;
    /// each drawn with `songs(channel, recent)` and played at `gain(track)`.
    init(channel: String, recent: [String], resuming: Resumed? = nil,
         songs: @escaping @Sendable (String, [String]) async -> [LibraryTrack],
         gain: @escaping (LibraryTrack) -> Double? = { _ in nil }, logger: Logger) {
        self.channel = channel
        self.recent = recent
        self.resuming = resuming
        self.songs = songs
        self.gain = gain
        self.logger = logger
    }

    /// The next song: the one taken up again first, then from the current list or a new one.
    func nextInput() -> LiveInput? {
        if let resumed = resuming {
            resuming = nil
            return offer(resumed.track, offset: resumed.offset, aired: resumed.airedAgain)
        }
        if queue.isEmpty {
            queue = draw()
        }
        guard !queue.isEmpty else { return nil }
        return offer(queue.removeFirst(), offset: 0, aired: true)
    }

    private func offer(_ track: LibraryTrack, offset: Int64, aired: Bool) -> LiveInput {
        let input = LiveInput(file: track.file, startSeconds: Double(offset) / 1000, gain: gain(track))
        offered = Offered(track: track, input: input, offset: offset, aired: aired)
        recent.append(track.sid)
        if recent.count > 20 { recent.removeFirst(recent.count - 20) }
        return input
    }

    /// The song offered last starts at `sample`, fading in over `fadeIn` samples.
    func inputStarted(_ input: LiveInput, at sample: Int64, fadeIn: Int64) {
        guard let song = offered, song.input == input else { return }
        offered = nil
        let started = Started(track: song.track, sample: sample, offset: song.offset, fadeIn: max(0, fadeIn))
        if song.aired {
            pending.append(started)
        } else {
            // Aired already: titles the segments without being aired twice.
            labels.append((started.titled, Self.label(of: song.track)))
        }
        given.append(started)
        if given.count > 4 { given.removeFirst(given.count - 4) }
        current = song.track.sid
    }

    /// A file that cannot be played is logged and passed over.
    func inputFailed(_ input: LiveInput, error: TranscodeError) {
        logger.warning("live song skipped", metadata: ["channel": .string(channel), "file": .string(input.file.path),
                                                       "error": .string("\(error)")])
        if offered?.input == input { offered = nil }
    }

    /// Where the audio stands at sample `end` (a segment's end): the song under way and
    /// how far into it, as a ``LiveCue``. The song under way is the last one started by
    /// its first sample, though it may still be fading in: a run that takes it up from
    /// there goes on from the sample it was at.
    func cue(at end: Int64) -> LiveCue {
        guard let song = given.last(where: { $0.sample < end }) else { return LiveCue(clock: end, sid: nil, offset: 0) }
        let into = (end - song.sample) * 1000 / Int64(LiveEncoder.sampleRate)
        return LiveCue(clock: end, sid: song.track.sid, offset: song.offset + into)
    }

    /// The songs on the air from before sample `end` on (their fade's middle before it)
    /// that were not handed on yet.
    func started(before end: Int64) -> [Started] {
        let due = pending.prefix { $0.titled < end }
        pending.removeFirst(due.count)
        for song in due {
            labels.append((song.titled, Self.label(of: song.track)))
        }
        if labels.count > 4 { labels.removeFirst(labels.count - 4) }
        return Array(due)
    }

    /// The title of a segment from `start` to `end`: the song on the air at its start (the
    /// middle of its fade in at or before it), else the first whose fade's middle is in it
    /// (call after ``started(before:)``).
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
