/// Who listens to one broadcast, as far as its feedback route goes (docs/PROTOCOL.md §11):
/// the listener ids the station handed out with the master playlist and when each last
/// fetched a playlist, the votes to skip the song on the air, and how fast each listener
/// (and each address without one) may send feedback.
///
/// A word on the broadcast counts only from someone the station knows: an id it handed out
/// itself (128 random bits, so not guessed) or an account. An id counts as listening while
/// it fetched a playlist naming it in the last ``window`` milliseconds (being handed out is
/// no such fetch); an account, for as long after its last word. Each listener votes once per song; the song ends when more than half of
/// those listening voted. Everything is kept in memory, under ``LiveBroadcast``'s lock;
/// times are milliseconds since the epoch, passed in, so the rules can be checked at any
/// moment.
struct LiveAudience {
    /// Who speaks on the feedback route.
    enum Voter: Hashable, Sendable {
        /// An id the station handed out (``LiveAudience/issue(now:)``).
        case listener(String)
        /// An account, by its profile key (`user:<id>`): its word carries its password.
        case account(String)
    }

    /// Whether a word on the feedback route is taken.
    enum Admission: Equatable, Sendable {
        /// Taken.
        case admitted
        /// No account, and no id the station handed out (or one it forgot): refused.
        case unknown
        /// Too many words from this listener (or address) lately: refused for this many
        /// milliseconds.
        case limited(retryAfter: Int64)
    }

    /// What a vote made of the count.
    enum Count: Equatable, Sendable {
        /// Counted: voters of the song among those listening, and how many listen.
        case counted(votes: Int, listeners: Int)
        /// The voter fetched no playlist lately: not listening, so no vote.
        case notListening
    }

    /// How long a fetch of a playlist counts as listening: a few target durations (a
    /// player polls a live playlist about once a target duration).
    let window: Int64
    /// How long an id is known after its last fetch: a paused player that polls again
    /// within it is the same listener. An id that fetched nothing after it was handed out is
    /// forgotten after the ``window``, so master playlists fetched in a loop do not fill
    /// the ``capacity``.
    static let kept: Int64 = 600_000
    /// The most ids kept at once; past it, ids are handed out no more until some lapse.
    static let capacity = 50_000
    /// Words one listener may send in a burst; then one per ``interval``.
    static let burst: Int64 = 8
    /// The pace of words past the burst: one every 4 s.
    static let interval: Int64 = 4_000

    /// The ids handed out: when each last fetched a playlist (or was handed out).
    private var ids: [String: Int64] = [:]
    /// The ids that fetched a playlist since they were handed out.
    private var polling: Set<String> = []
    /// Accounts that spoke: when each last did.
    private var accounts: [String: Int64] = [:]
    /// The song voted on, and who voted to skip it.
    private var votes: (sid: String, voters: Set<Voter>)?
    /// Per listener and per address (``Pace``): when its allowance is whole again.
    private var paces: [Pace: Int64] = [:]
    /// When ``ids``, ``accounts`` and ``paces`` were last rid of what lapsed.
    private var pruned: Int64 = 0

    /// Whose pace a word counts against.
    private enum Pace: Hashable {
        case voter(Voter)
        case address(String)
    }

    /// An audience counting a fetch as listening for `window` milliseconds.
    init(window: Int64) {
        self.window = window
    }

    /// A new id for a listener, known from `now` on; `nil` when ``capacity`` ids are kept.
    mutating func issue(now: Int64) -> String? {
        prune(now: now)
        guard ids.count < Self.capacity else { return nil }
        var generator = SystemRandomNumberGenerator()
        let id = Self.hex(generator.next()) + Self.hex(generator.next())
        ids[id] = now
        return id
    }

    /// Notes that `id` fetched a playlist now; false (and nothing noted) for an id the
    /// station did not hand out or has forgotten.
    @discardableResult
    mutating func polled(_ id: String, now: Int64) -> Bool {
        prune(now: now)
        guard ids[id] != nil else { return false }
        ids[id] = now
        polling.insert(id)
        return true
    }

    /// Whether `id` is one the station handed out and still keeps.
    func knows(_ id: String) -> Bool { ids[id] != nil }

    /// Whether a word from `voter` (`nil`: nobody the station knows) sent from `address` is
    /// taken: the voter must be known, and within its pace; an unknown one is refused, and
    /// past the pace of its address limited.
    mutating func admit(_ voter: Voter?, address: String?, now: Int64) -> Admission {
        prune(now: now)
        let known: Voter?
        switch voter {
        case .listener(let id)?: known = ids[id] != nil ? voter : nil
        case .account(let key)?:
            accounts[key] = now
            known = voter
        case nil: known = nil
        }
        guard let known else {
            if let address, case .limited(let wait) = pace(.address(address), now: now) { return .limited(retryAfter: wait) }
            return .unknown
        }
        return pace(.voter(known), now: now)
    }

    /// Counts `voter`'s vote to skip `sid` (the song on the air), once per voter and song.
    mutating func vote(_ sid: String, by voter: Voter, now: Int64) -> Count {
        guard isListening(voter, now: now) else { return .notListening }
        var voters = votes?.sid == sid ? votes?.voters ?? [] : []
        voters.insert(voter)
        votes = (sid, voters)
        let counted = voters.count(where: { isListening($0, now: now) })
        return .counted(votes: counted, listeners: listeners(now: now))
    }

    /// How many listen now: ids that fetched a playlist, and accounts that spoke, within
    /// the ``window``.
    func listeners(now: Int64) -> Int {
        polling.count(where: { id in ids[id].map { now - $0 <= window } ?? false })
            + accounts.values.count(where: { now - $0 <= window })
    }

    private func isListening(_ voter: Voter, now: Int64) -> Bool {
        switch voter {
        case .listener(let id): return polling.contains(id) && ids[id].map { now - $0 <= window } ?? false
        case .account(let key): return accounts[key].map { now - $0 <= window } ?? false
        }
    }

    /// Takes one word from `key`'s allowance (``burst`` words, one back every ``interval``):
    /// the allowance is kept as the moment it is whole again.
    private mutating func pace(_ key: Pace, now: Int64) -> Admission {
        let whole = max(paces[key] ?? now, now)
        let ahead = whole - now
        guard ahead <= (Self.burst - 1) * Self.interval else {
            return .limited(retryAfter: ahead - (Self.burst - 1) * Self.interval)
        }
        paces[key] = whole + Self.interval
        return .admitted
    }

    /// Drops ids and accounts silent past ``kept`` and allowances whole again, at most once
    /// a ``window``: counting filters by time anyway.
    private mutating func prune(now: Int64) {
        guard now - pruned > window else { return }
        pruned = now
        ids = ids.filter { now - $0.value <= (polling.contains($0.key) ? Self.kept : window) }
        polling = polling.filter { ids[$0] != nil }
        accounts = accounts.filter { now - $0.value <= window }
        paces = paces.filter { $0.value > now }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether `text` has the shape of an id (32 lowercase hexadecimal digits), checked on
    /// its bytes before any look-up.
    static func isID<S: Sequence>(_ text: S) -> Bool where S.Element == UInt8 {
        var count = 0
        for byte in text {
            count += 1
            guard count <= 32, (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            else { return false }
        }
        return count == 32
    }
}
