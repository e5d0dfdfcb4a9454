/// One report the simulated client sends to `/j/app/radio/people` (docs/PROTOCOL.md §2–§3):
/// the station adapter adds the listener's credentials, the channel and the extensions.
package struct ClientReport: Sendable, Equatable {
    /// `type`: one of `n e p s b r u`.
    package var type: String
    /// `sid`: the song it is about, empty for `n`.
    package var sid: String
    /// `pt`: seconds played of the song, when there is a song.
    package var playedTime: Double?
    /// `h`, in wire form (`|sid:t…`), on the long reports `n p s b` only.
    package var history: String?

    /// A report.
    package init(type: String, sid: String, playedTime: Double? = nil, history: String? = nil) {
        self.type = type
        self.sid = sid
        self.playedTime = playedTime
        self.history = history
    }
}

/// Where the simulated client's reports go: the real station over HTTP in `mhz-bench
/// taste`, a scripted one in the tests.
package protocol TasteStation: AnyObject {
    /// Sends one report; the songs of its answer (none for `e`'s acknowledgement).
    func people(_ report: ClientReport) throws(TasteError) -> [ServedSong]
}

/// mhz's radio as the station sees it, without a player: the rules of `RadioMachine`
/// (Sources/Radio) for what is sent when and what an answer does to the queue, played
/// out at once, one step per listener verdict (the simulated listener decides as soon as a
/// song starts; nothing is played in real time).
///
/// - Start: `n` with an empty `sid`; the list becomes the queue and its first song plays.
/// - A song that starts with fewer than 2 songs queued after it asks for more with `p`
///   (its sid); `p`'s songs are added behind the queue, those already queued left out.
/// - Loved: `r` (unless the song carries a heart already), whose list, when there is one,
///   replaces the queue; then the song ends: `e`.
/// - Neutral: `e`. After `e` the next queued song plays, or, with none, `p` with the ended
///   song's sid fetches a list whose first song plays.
/// - Skipped, trashed: `u` first when the song carries a heart (a listener who now dislikes
///   a song it once loved takes the heart back, and its list replaces the queue), then `s` or
///   `b`: the next queued song starts at once, and the answer replaces the rest of the queue.
/// - Every list is cleared of the song playing and of the songs trashed; `h` holds the last 20
///   actions, oldest first, each report's own action last, and goes on `n p s b`.
package struct SimulatedClient {
    /// How many actions `h` remembers (mhz's `historyCapacity`).
    package static let historyCapacity = 20
    /// A song starting with fewer queued than this fetches more (mhz's `prefetchThreshold`).
    package static let prefetchThreshold = 2
    /// Empty lists in a row after which the run gives up (mhz would ask again later and later).
    package static let emptyListsAllowed = 3

    /// The song playing.
    package private(set) var current: ServedSong?
    /// The songs to play next, in order.
    package private(set) var queue: [ServedSong] = []
    /// The first list the station answered.
    package private(set) var firstList: [ServedSong] = []
    /// Songs received in lists, and how many of them carried a `reason`.
    package private(set) var songsAnswered = 0, songsWithReason = 0
    /// Reports sent.
    package private(set) var reportsSent = 0

    private var history: [(sid: String, type: String)] = []
    private var trashed: Set<String> = []
    private let station: TasteStation

    /// A client of `station` that has not started.
    package init(station: TasteStation) {
        self.station = station
    }

    /// Tunes in (`n`) and starts the first song.
    @discardableResult
    package mutating func start() throws(TasteError) -> ServedSong {
        var songs = try send("n", sid: "", played: nil, long: true)
        var empty = 1
        while songs.isEmpty {
            guard empty < Self.emptyListsAllowed else { throw .noSongs("\(empty) empty answers to n") }
            songs = try send("n", sid: "", played: nil, long: true)
            empty += 1
        }
        firstList = songs
        queue = fresh(songs)
        return try playNext(after: nil)
    }

    /// Does what `verdict` says with the song playing; returns the song that plays next.
    @discardableResult
    package mutating func listen(_ verdict: Verdict) throws(TasteError) -> ServedSong {
        guard let song = current else { return try start() }
        switch verdict {
        case .loved:
            if !song.liked {
                let songs = try send("r", sid: song.sid, played: song.length / 2, long: false)
                current?.liked = true
                if !songs.isEmpty { queue = fresh(songs) }
            }
            return try end(song)
        case .neutral:
            return try end(song)
        case .skipped, .trashed:
            if song.liked {
                let songs = try send("u", sid: song.sid, played: song.length / 4, long: false)
                current?.liked = false
                if !songs.isEmpty { queue = fresh(songs) }
            }
            return try leave(song, type: verdict == .trashed ? "b" : "s")
        }
    }

    /// `e`, then the next song: queued, else from a `p` list.
    private mutating func end(_ song: ServedSong) throws(TasteError) -> ServedSong {
        _ = try send("e", sid: song.sid, played: song.length, long: false)
        if !queue.isEmpty { return try playNext(after: nil) }
        current = nil
        return try playNext(after: song)
    }

    /// `s` or `b`: the next queued song starts at once; the answer replaces the rest.
    private mutating func leave(_ song: ServedSong, type: String) throws(TasteError) -> ServedSong {
        if type == "b" { trashed.insert(song.sid) }
        // The report is made about the song left (its sid, its history entry) before the
        // next one takes its place.
        let report = makeReport(type, sid: song.sid, played: song.length / 4, long: true)
        current = queue.isEmpty ? nil : queue.removeFirst()
        let songs = try deliver(report)
        queue = fresh(songs)
        if current == nil { return try playNext(after: song) }
        return try started()
    }

    /// Plays the queue's head; with an empty queue fetches with `p` about `last` first.
    private mutating func playNext(after last: ServedSong?) throws(TasteError) -> ServedSong {
        var empty = 0
        while queue.isEmpty {
            guard empty < Self.emptyListsAllowed, let last else { throw .noSongs("\(empty) empty answers to p") }
            queue += fresh(try send("p", sid: last.sid, played: 0, long: true))
            empty += 1
        }
        current = queue.removeFirst()
        return try started()
    }

    /// The current song's first audio: with fewer than 2 queued, `p` fetches more.
    private mutating func started() throws(TasteError) -> ServedSong {
        guard let song = current else { throw .noSongs("nothing to play") }
        if queue.count < Self.prefetchThreshold {
            let more = fresh(try send("p", sid: song.sid, played: 0, long: true))
            queue += more.filter { candidate in !queue.contains { $0.sid == candidate.sid } }
        }
        return song
    }

    /// A list's songs without the one playing and the trashed ones.
    private func fresh(_ songs: [ServedSong]) -> [ServedSong] {
        songs.filter { $0.sid != current?.sid && !trashed.contains($0.sid) }
    }

    private mutating func send(_ type: String, sid: String, played: Double?, long: Bool) throws(TasteError) -> [ServedSong] {
        try deliver(makeReport(type, sid: sid, played: played, long: long))
    }

    /// The report, with its action recorded in the history first (feedback only: `n` and `p`
    /// are not actions), so a long report's `h` ends with its own action.
    private mutating func makeReport(_ type: String, sid: String, played: Double?, long: Bool) -> ClientReport {
        if ["e", "s", "b", "r", "u"].contains(type) {
            history.append((sid, type))
            if history.count > Self.historyCapacity { history.removeFirst(history.count - Self.historyCapacity) }
        }
        return ClientReport(type: type, sid: sid, playedTime: played,
                            history: long ? history.map { "|\($0.sid):\($0.type)" }.joined() : nil)
    }

    private mutating func deliver(_ report: ClientReport) throws(TasteError) -> [ServedSong] {
        reportsSent += 1
        let songs = try station.people(report)
        songsAnswered += songs.count
        songsWithReason += songs.filter { $0.reason != nil }.count
        return songs
    }
}
