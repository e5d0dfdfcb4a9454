@testable import Station
import Testing

/// ``LiveAudience``: who may speak on a broadcast's feedback route and whose vote counts,
/// at moments the tests choose (milliseconds).
@Suite("Live audience")
struct LiveAudienceTests {
    /// Ten seconds: five two-second target durations.
    static let window: Int64 = 10_000

    @Test("only ids the station handed out are listeners; invented ones are refused and count for nothing")
    func inventedIDs() throws {
        let audience = Box(LiveAudience(window: Self.window))
        let issued = audience.issue(now: 0)
        let real = try #require(issued)
        #expect(real.count == 32 && LiveAudience.isID(real.utf8))
        let other = audience.issue(now: 0)
        #expect(other != nil && other != real)
        let invented = String(repeating: "ab", count: 16)
        #expect(!audience.polled(invented, now: 1_000))
        #expect(!audience.knows(invented))
        for word in 0..<4 {
            #expect(audience.admit(.listener("\(invented.dropLast())\(word)"), address: "10.0.0.9", now: 1_000) == .unknown)
        }
        #expect(audience.admit(nil, address: "10.0.0.9", now: 1_000) == .unknown)
        #expect(audience.polled(real, now: 1_000))
        #expect(audience.admit(.listener(real), address: "10.0.0.9", now: 1_000) == .admitted)
        // Only the one that polled listens: being handed an id is no poll.
        #expect(audience.vote("7", by: .listener(real), now: 1_000) == .counted(votes: 1, listeners: 1))
        #expect(audience.vote("7", by: .listener(try #require(other)), now: 1_000) == .notListening)
        #expect(!LiveAudience.isID("AB".utf8) && !LiveAudience.isID(String(repeating: "A", count: 32).utf8)
                    && !LiveAudience.isID(String(repeating: "a", count: 33).utf8))
    }

    @Test("one vote per listener and song; a listener that stopped polling no longer counts, nor votes")
    func votesAndLapses() throws {
        let audience = Box(LiveAudience(window: Self.window))
        let ids = (0..<3).compactMap { _ in audience.issue(now: 0) }
        #expect(ids.count == 3)
        for id in ids { #expect(audience.polled(id, now: 1_000)) }
        #expect(audience.vote("7", by: .listener(ids[0]), now: 2_000) == .counted(votes: 1, listeners: 3))
        #expect(audience.vote("7", by: .listener(ids[0]), now: 2_500) == .counted(votes: 1, listeners: 3))
        // Past the window only those who polled again listen: the third stopped.
        for id in ids.prefix(2) { #expect(audience.polled(id, now: 9_000)) }
        #expect(audience.listeners(now: 12_000) == 2)
        #expect(audience.vote("7", by: .listener(ids[2]), now: 12_000) == .notListening)
        #expect(audience.vote("7", by: .listener(ids[1]), now: 12_000) == .counted(votes: 2, listeners: 2))
        // A new song starts the count again; an id lapsed from listening is still known.
        #expect(audience.vote("8", by: .listener(ids[1]), now: 12_000) == .counted(votes: 1, listeners: 2))
        #expect(audience.knows(ids[2]) && audience.admit(.listener(ids[2]), address: nil, now: 12_000) == .admitted)
        // Polling again, it listens and votes again.
        #expect(audience.polled(ids[2], now: 13_000))
        #expect(audience.vote("8", by: .listener(ids[2]), now: 13_000) == .counted(votes: 2, listeners: 3))
        // An account listens from its word on, for the window.
        #expect(audience.admit(.account("user:4"), address: nil, now: 14_000) == .admitted)
        #expect(audience.vote("8", by: .account("user:4"), now: 14_000) == .counted(votes: 3, listeners: 4))
        #expect(audience.listeners(now: 24_001) == 0)
    }

    @Test("ids handed out and never used are forgotten after the window; ids polling are kept ten minutes after their last poll")
    func forgetting() throws {
        let audience = Box(LiveAudience(window: Self.window))
        let issued = (0..<2).compactMap { _ in audience.issue(now: 0) }
        #expect(issued.count == 2)
        #expect(audience.polled(issued[0], now: 1_000))
        // Pruning runs at most once a window: the next look past one forgets the unused id.
        #expect(audience.polled(issued[0], now: 20_000))
        #expect(!audience.knows(issued[1]) && audience.knows(issued[0]))
        #expect(audience.polled(issued[0], now: 20_000 + LiveAudience.kept))
        _ = audience.issue(now: 30_001 + 2 * LiveAudience.kept)
        #expect(!audience.knows(issued[0]))
    }

    @Test("a flood from one listener is limited to a burst of eight, then one word every 4 s; a stranger's address likewise")
    func pace() throws {
        let audience = Box(LiveAudience(window: Self.window))
        let issued = audience.issue(now: 0)
        let id = try #require(issued)
        for word in 0..<8 {
            #expect(audience.admit(.listener(id), address: "10.0.0.1", now: 100) == .admitted, "word \(word)")
        }
        #expect(audience.admit(.listener(id), address: "10.0.0.1", now: 100) == .limited(retryAfter: 4_000))
        #expect(audience.admit(.listener(id), address: "10.0.0.1", now: 3_100) == .limited(retryAfter: 1_000))
        #expect(audience.admit(.listener(id), address: "10.0.0.1", now: 4_100) == .admitted)
        #expect(audience.admit(.listener(id), address: "10.0.0.1", now: 4_100) == .limited(retryAfter: 4_000))
        // Another listener at the same address has its own pace.
        let more = audience.issue(now: 0)
        let other = try #require(more)
        #expect(audience.admit(.listener(other), address: "10.0.0.1", now: 4_100) == .admitted)
        // Strangers: refused, and past the burst their address is limited.
        for _ in 0..<8 { #expect(audience.admit(nil, address: "10.0.0.2", now: 100) == .unknown) }
        #expect(audience.admit(nil, address: "10.0.0.2", now: 100) == .limited(retryAfter: 4_000))
        #expect(audience.admit(nil, address: "10.0.0.3", now: 100) == .unknown)
    }
}

/// An audience behind a reference: `#expect` cannot call a value's mutating methods.
private final class Box {
    private var value: LiveAudience

    init(_ value: LiveAudience) {
        self.value = value
    }

    func issue(now: Int64) -> String? { value.issue(now: now) }
    func polled(_ id: String, now: Int64) -> Bool { value.polled(id, now: now) }
    func knows(_ id: String) -> Bool { value.knows(id) }
    func admit(_ voter: LiveAudience.Voter?, address: String?, now: Int64) -> LiveAudience.Admission {
        value.admit(voter, address: address, now: now)
    }
    func vote(_ sid: String, by voter: LiveAudience.Voter, now: Int64) -> LiveAudience.Count {
        value.vote(sid, by: voter, now: now)
    }
    func listeners(now: Int64) -> Int { value.listeners(now: now) }
}
