import Dispatch
import Foundation
import Logging
import MusicLibrary
import NIOCore
import Synchronization
import Transcoder

/// One channel's broadcast: a thread of its own that asks the channel's recommender for
/// songs (``LiveSongFeed``), has ``LiveEncoder`` cut them into segments of every variant,
/// and publishes each segment when its time has come: at the wall-clock moment its audio
/// ends, so the broadcast goes at the pace of the audio, not of the encoder. Segments go to
/// disk (``LiveArchive``) and into the list the playlists are made from.
///
/// A run starts at the first request (``LiveHub``) and ends when nobody asked for the
/// channel for ``LiveConfiguration/idleTimeout`` (unless the channel is in
/// ``LiveConfiguration/always``), when the station stops, or when encoding fails. The next
/// run, in this process or after a restart, goes on from the last segment published
/// (``LiveRunStart``): the media sequence, the dates and the timestamps continue, and the
/// song that was on the air is taken up where it was; an `EXT-X-DISCONTINUITY` marks the
/// break unless the run starts the moment the last segment ended. A run's first
/// ``LiveConfiguration/prefill`` segments are dated back so that they are due at once.
final class LiveBroadcast: Sendable {
    /// Where a broadcast is.
    enum Phase: Sendable, Equatable {
        /// No thread runs.
        case offAir
        /// The thread runs; `published` segments of this run are out (a run that continues
        /// the last segment counts its prefill out from its start).
        case onAir(published: Int)
        /// The thread was asked to end and has not yet.
        case stopping
    }

    private struct State {
        var phase = Phase.offAir
        var segments: [LiveSegment]
        var aired: [AiredRecord]
        /// When the channel was last asked for (ms since the epoch).
        var lastRequest: Int64 = 0
        /// When the run on the air began (ms since the epoch); nil off the air.
        var onAirSince: Int64?
        /// Requests waiting for the run's first segments.
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Signalled when a run's thread ends.
        var ended: DispatchSemaphore?
        /// The listeners the station handed ids to, their votes and their pace.
        var audience: LiveAudience
        /// A song a majority voted to end: the thread ends it at the next segment it cuts.
        var endRequested: String?
        /// The window's playlists and the newest segments' bytes, shared by every request.
        var edge = LiveEdge()

        /// The song on the air (``LiveProgramme/onAir(_:segments:broadcasting:)``).
        var songOnAir: AiredRecord? {
            guard case .onAir = phase else { return nil }
            return LiveProgramme.onAir(aired, segments: segments, broadcasting: true).map { aired[$0] }
        }
    }

    /// The channel's id.
    let channel: String
    private let configuration: LiveConfiguration
    private let archive: LiveArchive
    private let songs: @Sendable (String, [String]) async -> [LibraryTrack]
    /// The library's track of a sid, for the song a run takes up again.
    private let track: @Sendable (String) -> LibraryTrack?
    /// A track's levelling gain (dB), `nil` for none.
    private let gain: @Sendable (LibraryTrack) -> Double?
    private let logger: Logger
    private let state: Mutex<State>
    /// Wakes the thread from its wait for a segment's time when it is asked to stop.
    private let wake = DispatchSemaphore(value: 0)
    /// Where a run's sample clock starts: two seconds in, so that the encoder's priming
    /// (its first packet is 1024 samples before the first frame) is never negative.
    private static let firstSample: Int64 = 2 * Int64(LiveEncoder.sampleRate)

    /// A broadcast of `channel` keeping its segments in `directory`, drawing songs with
    /// `songs(channel, recent sids)`, finding the one it takes up again with `track(sid)`
    /// and playing each at `gain(track)` dB (`nil`: as it is).
    init(channel: String, directory: URL, configuration: LiveConfiguration, logger: Logger,
         songs: @escaping @Sendable (String, [String]) async -> [LibraryTrack],
         track: @escaping @Sendable (String) -> LibraryTrack?,
         gain: @escaping @Sendable (LibraryTrack) -> Double? = { _ in nil }) {
        self.channel = channel
        self.configuration = configuration
        archive = LiveArchive(directory: directory, bitrates: LiveConfiguration.bitrates)
        self.songs = songs
        self.track = track
        self.gain = gain
        self.logger = logger
        let stored = archive.load()
        // A listener counts for five target durations after a playlist fetch: a player polls
        // about once a target duration, so a few polls may be late or lost.
        let window = 5 * max(1, configuration.segmentSamples * 1000 / Int64(LiveEncoder.sampleRate))
        state = Mutex(State(segments: stored.segments, aired: stored.aired, audience: LiveAudience(window: window)))
    }

    /// Now, in milliseconds since the epoch.
    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// The segments kept, oldest first, and the songs aired, oldest first.
    var snapshot: (segments: [LiveSegment], aired: [AiredRecord], onAir: Bool) {
        state.withLock { state in
            if case .onAir = state.phase { return (state.segments, state.aired, true) }
            return (state.segments, state.aired, false)
        }
    }

    /// Since when the channel has been on the air (ms since the epoch) and how many listen
    /// now; nil when it is off the air.
    var onAir: (since: Int64, listeners: Int)? {
        state.withLock { state in
            guard case .onAir = state.phase, let since = state.onAirSince else { return nil }
            return (since, state.audience.listeners(now: Self.now()))
        }
    }

    /// The archive's file for a segment of a variant.
    func file(kbps: Int, sequence: Int) -> URL { archive.file(kbps: kbps, sequence: sequence) }

    /// The shortest `EXT-X-TARGETDURATION` of the playlists: the segment length, in whole
    /// seconds (at least 1).
    var minimumTarget: Int { max(1, Int((Double(configuration.segmentSamples) / 44100).rounded())) }

    /// The live window's playlist of the variant at `kbps` (``LivePlaylist/media(_:kbps:kind:minimumTarget:)``
    /// of the last ``LiveConfiguration/window`` segments), made once per window and shared.
    func windowPlaylist(kbps: Int) -> Data {
        let minimumTarget = self.minimumTarget
        return Data(buffer: state.withLock { state in
            state.edge.playlist(kbps: kbps, of: state.segments, minimumTarget: minimumTarget)
        })
    }

    /// For a listener at the live edge (``LiveEdgeRoute``): the live window's playlist of the
    /// variant at `kbps`, when the broadcast is on the air with its first segments out, the
    /// request noted as ``listen()`` notes it and `listener` (an id handed out, if any) as
    /// ``heard(_:)`` does, under one lock. `nil` when the broadcast is off the air, starting
    /// or stopping: then the route's own answer starts it or waits for it.
    func edgePlaylist(kbps: Int, listener: String?) -> ByteBuffer? {
        let minimumTarget = self.minimumTarget
        let now = Self.now()
        return state.withLock { state -> ByteBuffer? in
            guard case .onAir(let published) = state.phase, published >= LiveConfiguration.prefill else { return nil }
            state.lastRequest = now
            if let listener { state.audience.polled(listener, now: now) }
            return state.edge.playlist(kbps: kbps, of: state.segments, minimumTarget: minimumTarget)
        }
    }

    /// For a listener at the live edge (``LiveEdgeRoute``): the bytes of segment `sequence`
    /// of the variant at `kbps` when it is listed and kept in memory and the broadcast is on
    /// the air with its first segments out, the request noted as ``listen()`` notes it.
    /// `nil` otherwise: then the route's own answer reads its file or refuses it.
    func edgeSegment(kbps: Int, sequence: Int) -> ByteBuffer? {
        let now = Self.now()
        return state.withLock { state -> ByteBuffer? in
            guard case .onAir(let published) = state.phase, published >= LiveConfiguration.prefill,
                  Self.lists(sequence, in: state.segments), let bytes = state.edge.segment(kbps: kbps, sequence: sequence)
            else { return nil }
            state.lastRequest = now
            return bytes
        }
    }

    /// The bytes of segment `sequence` of the variant at `kbps` while it is listed: from
    /// memory for the newest (``LiveEdge``), else from its file; `nil` when it is not listed
    /// or its file cannot be read.
    func segment(kbps: Int, sequence: Int) -> Data? {
        enum Found {
            case unlisted
            case inMemory(ByteBuffer)
            case onDisk
        }
        let found: Found = state.withLock { state in
            guard Self.lists(sequence, in: state.segments) else { return .unlisted }
            return state.edge.segment(kbps: kbps, sequence: sequence).map(Found.inMemory) ?? .onDisk
        }
        switch found {
        case .unlisted: return nil
        case .inMemory(let bytes): return Data(buffer: bytes)
        case .onDisk: return try? Data(contentsOf: archive.file(kbps: kbps, sequence: sequence))
        }
    }

    /// Whether `segments` (oldest first, sequences rising) list `sequence`: looked up where
    /// it would be if the sequences run without a gap, as they do but after a crash.
    private static func lists(_ sequence: Int, in segments: [LiveSegment]) -> Bool {
        guard let first = segments.first?.sequence else { return false }
        // `sequence` is a request's number, any Int (`-9223372036854775808.ts`).
        let (index, overflow) = sequence.subtractingReportingOverflow(first)
        if !overflow, index >= 0, index < segments.count, segments[index].sequence == sequence { return true }
        return segments.contains { $0.sequence == sequence }
    }

    /// Notes a request for the channel and starts a run when none is on: returns once the
    /// run has its first ``LiveConfiguration/prefill`` segments out (at once, or within a
    /// few segments after an earlier run that ended moments ago), or has ended.
    func listen() async {
        let needsWait: Bool = state.withLock { state in
            state.lastRequest = Self.now()
            switch state.phase {
            case .onAir(let published): return published < LiveConfiguration.prefill
            case .stopping: return false
            case .offAir:
                let ended = DispatchSemaphore(value: 0)
                state.ended = ended
                state.phase = .onAir(published: 0)
                state.onAirSince = state.lastRequest
                let thread = Thread { [self] in
                    run()
                    finishRun()
                    ended.signal()
                }
                thread.name = "mhz.live.\(channel)"
                thread.start()
                return true
            }
        }
        guard needsWait else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow: Bool = state.withLock { state in
                if case .onAir(let published) = state.phase, published < LiveConfiguration.prefill {
                    state.waiters.append(continuation)
                    return false
                }
                return true
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Notes that the listener with id `listener` fetched a playlist now; false for an id
    /// the station did not hand out (or has forgotten), which counts for nothing.
    @discardableResult
    func heard(_ listener: String) -> Bool {
        let now = Self.now()
        return state.withLock { state in state.audience.polled(listener, now: now) }
    }

    /// A new listener id, listening from now on; `nil` when the audience is full.
    func issueListener() -> String? {
        let now = Self.now()
        return state.withLock { state in state.audience.issue(now: now) }
    }

    /// Whether a word on the feedback route from `voter` (sent from `address`) is taken
    /// (``LiveAudience/admit(_:address:now:)``).
    func admit(_ voter: LiveAudience.Voter?, address: String?) -> LiveAudience.Admission {
        let now = Self.now()
        return state.withLock { state in state.audience.admit(voter, address: address, now: now) }
    }

    /// The song on the air (``LiveProgramme/onAir(_:segments:broadcasting:)``).
    var songOnAir: AiredRecord? {
        state.withLock { $0.songOnAir }
    }

    /// Counts `voter`'s vote to skip `sid`, the song on the air: once per voter, and only
    /// while it listens (``LiveAudience/vote(_:by:now:)``). More than half of those listening
    /// end it at the next segment boundary the encoder cuts.
    func voteToSkip(_ sid: String, by voter: LiveAudience.Voter) -> Vote {
        let now = Self.now()
        return state.withLock { state -> Vote in
            guard state.songOnAir?.sid == sid else { return .notOnAir }
            guard case .counted(let votes, let listeners) = state.audience.vote(sid, by: voter, now: now) else {
                return .notListening
            }
            let ending = votes * 2 > listeners
            if ending { state.endRequested = sid }
            return .counted(Tally(sid: sid, votes: votes, listeners: listeners, ending: ending))
        }
    }

    /// Whether `sid` is the song that left the air last while a listener at the live edge
    /// still hears it: the song on the air began after the segment a player joining now
    /// starts at (the ``LiveConfiguration/prefill``-th from the newest), so its end is still
    /// ahead of that listener, and comes for everyone without a vote.
    func justLeft(_ sid: String) -> Bool {
        state.withLock { state in
            guard case .onAir = state.phase, state.aired.count >= 2, state.aired[state.aired.count - 2].sid == sid,
                  !state.segments.isEmpty
            else { return false }
            let join = state.segments[max(0, state.segments.count - LiveConfiguration.prefill)].start
            return state.aired[state.aired.count - 1].start > join
        }
    }

    /// Ends the run under way, if any, and waits for its thread. Blocks.
    func stop() {
        let ended: DispatchSemaphore? = state.withLock { state in
            if case .onAir = state.phase { state.phase = .stopping }
            return state.ended
        }
        guard let ended else { return }
        wake.signal()
        ended.wait()
        ended.signal()
    }

    /// One run: segments until told to stop, left idle or failing.
    private func run() {
        let segmentMilliseconds = configuration.segmentSamples * 1000 / Int64(LiveEncoder.sampleRate)
        // Dated back for the first segments, but never into what an earlier run aired:
        // the segments' times only go forward.
        // It goes on from the last segment published (LiveRunStart).
        let (last, recent, lastAired) = state.withLock { ($0.segments.last, $0.aired.suffix(10).map(\.sid), $0.aired.last?.sid) }
        let track = self.track
        let begin = LiveRunStart.after(last, now: Self.now(), datedBack: Int64(LiveConfiguration.prefill) * segmentMilliseconds,
                                       length: { sid in track(sid).flatMap(LiveRunStart.milliseconds(of:)) })
        let runStart = begin.start
        // Taken up seamlessly, the song goes on as the song aired; but one stopped while it
        // faded in, before the middle of its fade, was never aired: it is now.
        let resumed = begin.resumed.flatMap { song in
            track(song.sid).map {
                LiveSongFeed.Resumed(track: $0, offset: song.offset, airedAgain: !begin.continues || lastAired != song.sid)
            }
        }
        if begin.continues { releaseWaiters() }
        let feed = LiveSongFeed(channel: channel, recent: recent, resuming: resumed, songs: songs, gain: gain, logger: logger)
        let crossfade = configuration.crossfadeSamples
        let encoder: LiveEncoder
        let first: Int64
        do throws(TranscodeError) {
            let fresh = try LiveEncoder(bitrates: LiveConfiguration.bitrates, firstSample: Self.firstSample,
                                        crossfade: crossfade, source: feed)
            if let clock = begin.clock {
                // The first packet, a priming before the first sample, starts where the
                // last segment ended.
                first = clock + fresh.priming
                encoder = try LiveEncoder(bitrates: LiveConfiguration.bitrates, firstSample: first, crossfade: crossfade,
                                          source: feed)
            } else {
                first = Self.firstSample
                encoder = fresh
            }
        } catch {
            logger.error("live broadcast cannot start", metadata: ["channel": .string(channel), "error": .string("\(error)")])
            return
        }
        // The run's first segment, its priming included, starts at `runStart`.
        let origin = first - encoder.priming
        let wall = { (sample: Int64) -> Int64 in runStart + (sample - origin) * 1000 / Int64(LiveEncoder.sampleRate) }
        var index: Int64 = 0
        // A discontinuity goes before the run's first segment unless it continues the last.
        var afterBreak = !begin.continues
        while isRunning {
            // A song the listeners voted off ends here, if it is still the one playing.
            if let ending = state.withLock({ state in defer { state.endRequested = nil }; return state.endRequested }),
               feed.current == ending {
                encoder.endInput()
            }
            let audio: LiveEncoder.Segment
            do throws(TranscodeError) {
                audio = try encoder.segment(endingAt: first + (index + 1) * configuration.segmentSamples)
            } catch {
                logger.error("live broadcast failed", metadata: ["channel": .string(channel), "error": .string("\(error)")])
                return
            }
            index += 1
            // Its time comes when its audio ends.
            let due = wall(audio.end)
            while isRunning, Self.now() < due {
                _ = wake.wait(timeout: .now() + .milliseconds(Int(min(due - Self.now(), 1000))))
            }
            guard isRunning else { return }
            let started = feed.started(before: audio.end).map { song in
                AiredRecord(sid: song.track.sid, title: song.track.title, artist: song.track.artist,
                            start: wall(song.titled), length: airedLength(of: song))
            }
            let title = feed.label(at: audio.start, before: audio.end)
            do {
                try publish(audio, start: wall(audio.start), title: title, songs: started, cue: feed.cue(at: audio.end),
                            afterBreak: afterBreak)
            } catch {
                logger.error("live segment not written", metadata: ["channel": .string(channel), "error": .string("\(error)")])
                return
            }
            afterBreak = false
            if idle { return }
        }
    }

    /// How long `song` is expected to be the song on the air (ms): from the middle of its
    /// fade in to the middle of its fade out, the crossfade unless the song is too short
    /// for it (half of each fade counts to each of its two songs).
    private func airedLength(of song: LiveSongFeed.Started) -> Int64 {
        let rate = Int64(LiveEncoder.sampleRate)
        let played = max(0, (LiveRunStart.milliseconds(of: song.track) ?? 0) - song.offset)
        let fadeIn = song.fadeIn * 1000 / rate
        let fadeOut = min(configuration.crossfadeSamples * 1000 / rate, (played - fadeIn) / 2)
        return played - fadeIn / 2 - max(0, fadeOut) / 2
    }

    private var isRunning: Bool {
        state.withLock { if case .onAir = $0.phase { true } else { false } }
    }

    /// Nobody asked for the channel for the idle timeout, and it is not kept on the air.
    private var idle: Bool {
        guard !configuration.always.contains(channel) else { return false }
        return state.withLock { Self.now() - $0.lastRequest > configuration.idleMilliseconds }
    }

    /// Writes a segment (with its cue) and the songs that started in it, lists them, and
    /// trims what aged past the look-back; `afterBreak` puts a discontinuity before it.
    private func publish(_ audio: LiveEncoder.Segment, start: Int64, title: String, songs: [AiredRecord], cue: LiveCue,
                         afterBreak: Bool) throws {
        let (sequence, discontinuity, era) = state.withLock { state in
            let discontinuity = afterBreak && !state.segments.isEmpty
            return ((state.segments.last?.sequence ?? -1) + 1, discontinuity,
                    (state.segments.last?.era ?? 0) + (discontinuity ? 1 : 0))
        }
        let segment = LiveSegment(sequence: sequence, start: start, duration: audio.duration, title: title,
                                  discontinuity: discontinuity, era: era, cue: cue)
        try archive.append(segment, variants: audio.variants)
        for song in songs { try archive.append(song) }
        var kept = state.withLock { state in
            state.segments.append(segment)
            state.aired.append(contentsOf: songs)
            return (state.segments, state.aired)
        }
        // Trimmed once the oldest segment is past the look-back by a tenth of it (at most a
        // minute): the lists are rewritten every so often, not at every segment.
        let cutoff = Self.now() - configuration.lookbackMilliseconds
        let slack = min(60_000, configuration.lookbackMilliseconds / 10)
        if let oldest = kept.0.first, oldest.end < cutoff - slack {
            kept = try archive.trim(kept.0, kept.1, before: cutoff)
        }
        // The window's playlists, made once here rather than at every listener's poll.
        let playlists = LiveEdge.playlists(of: kept.0, minimumTarget: minimumTarget)
        let bytes = audio.variants.map { ByteBuffer(bytes: $0) }
        let waiters = state.withLock { state in
            if kept.0.count != state.segments.count {
                state.segments = kept.0
                state.aired = kept.1
            }
            state.edge.keep(sequence: sequence, variants: bytes)
            state.edge.adopt(playlists, madeOf: kept.0, segments: state.segments)
            if case .onAir(let published) = state.phase {
                state.phase = .onAir(published: published + 1)
                if published + 1 >= LiveConfiguration.prefill {
                    defer { state.waiters = [] }
                    return state.waiters
                }
            }
            return []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// A run that continues the last segment without a break has its window already (the
    /// segments published before, on disk): requests waiting for its first segments go on
    /// at once rather than a prefill later, and a player reloading its playlist across a
    /// restart of the station waits no longer than the restart.
    private func releaseWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .onAir(let published) = state.phase, published < LiveConfiguration.prefill,
                  state.segments.count >= LiveConfiguration.prefill
            else { return [] }
            state.phase = .onAir(published: LiveConfiguration.prefill)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The run is over: off the air, and whoever waited for it goes on.
    private func finishRun() {
        let waiters = state.withLock { state in
            state.phase = .offAir
            state.ended = nil
            // Off the air nobody polls the edge: its segments' bytes are not held for a
            // channel that may stay off for hours (the files serve them meanwhile).
            state.edge = LiveEdge()
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
