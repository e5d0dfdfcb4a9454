/// The `h` parameter: the listener's recent actions, oldest first, newest appended, as
/// `|sid:type|sid:type` (docs/PROTOCOL.md §3.4, the official client's order in the Windows app's captured traffic).
///
/// The server learns from it what the listener heard and how they reacted, so a fresh
/// list can avoid songs just played. The ring is bounded: hzqtc/fmd keeps 10, the 2010 web
/// player 20; mhz keeps 20.
public struct ReportHistory: Sendable, Equatable {
    /// One remembered action.
    public struct Entry: Sendable, Equatable {
        /// The song the action was about.
        public var sid: String
        /// What happened to it.
        public var type: ReportType

        /// Creates an entry.
        public init(sid: String, type: ReportType) {
            self.sid = sid
            self.type = type
        }
    }

    /// The remembered actions, oldest first.
    public private(set) var entries: [Entry] = []
    /// How many actions are kept.
    public let capacity: Int

    /// Creates an empty history holding at most `capacity` actions.
    public init(capacity: Int = 20) {
        precondition(capacity > 0, "a history must hold at least one entry")
        self.capacity = capacity
    }

    /// Remembers an action, forgetting the oldest when full.
    public mutating func record(sid: String, type: ReportType) {
        entries.append(Entry(sid: sid, type: type))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// The wire form of the remembered actions (``wireForm(_:)``).
    public var encoded: String { Self.wireForm(entries) }

    /// The wire form of `h`: `|sid:t` per entry, oldest first, or the empty string for none.
    public static func wireForm(_ entries: [Entry]) -> String {
        entries.map { "|\($0.sid):\($0.type.rawValue)" }.joined()
    }

    /// Parses the wire form back, tolerating the variants real clients sent: a missing
    /// leading `|`, empty sids (`|:e`) and unknown letters (skipped).
    ///
    /// Split on scalars, not Characters: a sid that starts with a combining mark makes one
    /// Character with the `|` before it (and one that ends with a prepended mark, with the
    /// `:` after it), so the wire form of such a sid would not read back.
    public static func parse(_ text: String) -> [Entry] {
        text.unicodeScalars.split(separator: "|").compactMap { item in
            guard let colon = item.lastIndex(of: ":") else { return nil }
            let sid = String(Substring(item[..<colon]))
            guard let type = ReportType(rawValue: String(Substring(item[item.index(after: colon)...]))) else { return nil }
            return Entry(sid: sid, type: type)
        }
    }
}
