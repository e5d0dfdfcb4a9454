import Foundation
import Station

/// Concurrent HTTP load on a station at 127.0.0.1: logged-in listeners, each a thread with
/// a keep-alive ``LoadClient``. Threads rather than tasks, so the load generator never
/// competes with the station for Swift's cooperative pool (the station runs in the same
/// process).
public struct StationLoad: Sendable {
    /// The station's port.
    public let port: Int

    /// Load on the station at 127.0.0.1:`port`.
    public init(port: Int) {
        self.port = port
    }

    /// Creates `listeners` accounts and logs each in; returns their query-string
    /// credentials (`&user_id=…&expire=…&token=…`), in order.
    public func logIn(listeners: Int, dataDirectory: URL) async throws -> [String] {
        var credentials: [String] = []
        for index in 0..<listeners {
            let name = "bench\(index)"
            try await Station.addUser(name: name, password: "pw", cost: 4, dataDirectory: dataDirectory)
            let body = try LoadClient(port: port).post(
                "/j/app/login", form: "app_name=radio_android&version=100&username=\(name)&password=pw")
            let json = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
            guard let id = json["user_id"] as? String, let token = json["token"] as? String,
                  let expire = json["expire"] as? String
            else { throw BenchError.protocolError(String(decoding: body, as: UTF8.self)) }
            credentials.append("&user_id=\(id)&expire=\(expire)&token=\(token)")
        }
        return credentials
    }

    /// The names of ``playlistMix(_:)``'s requests, by round modulo 4.
    public static let playlistMixKinds = ["n", "s", "r", "liked_songs"]

    /// The playlist mix, a listener's round in turn: a new list, a skip, a like (answered
    /// with a list), an export of the liked songs; `credentials` as ``logIn(listeners:dataDirectory:)``
    /// returns them.
    public static func playlistMix(_ credentials: [String]) -> @Sendable (Int, Int, String) -> String {
        { client, round, previous in
            let app = "app_name=radio_android&version=100\(credentials[client])"
            switch round % 4 {
            case 1 where !previous.isEmpty: return "/j/app/radio/people?\(app)&channel=0&type=s&sid=\(previous)"
            case 2 where !previous.isEmpty: return "/j/app/radio/people?\(app)&channel=0&type=r&sid=\(previous)"
            case 3: return "/j/app/radio/liked_songs?\(app)&count=20"
            default: return "/j/app/radio/people?\(app)&channel=0&type=n&sid="
            }
        }
    }

    /// Runs `perClient` requests on each of `clients` threads, all released at once after
    /// every client's warm-up has been answered; `target(client, round, previousSid)` names
    /// each request. Returns the latencies (ms) and the wall time (s).
    ///
    /// The release waits for the slowest warm-up so that what is measured is the steady
    /// state: a listener's first list over a large library builds its state (its scores and
    /// sound distances over every track), and measured requests queued behind 63 such builds
    /// would time the builds, not the answers.
    public func run(clients: Int, perClient: Int,
             target: @escaping @Sendable (Int, Int, String) -> String) -> ([Double], Double) {
        let (latencies, wall) = run(clients: clients, perClient: perClient, kinds: 1, target: target)
        return (latencies[0], wall)
    }

    /// ``run(clients:perClient:target:)`` with the latencies sorted by the kind of request:
    /// element `k` of the answer holds the rounds whose number is `k` modulo `kinds` (the
    /// playlist mix's n, s, r and liked_songs with `kinds` 4), so a slow tail can be traced
    /// to what was asked.
    ///
    /// `ready` runs once every warm-up is answered, just before the release: what it
    /// samples (the station's CPU time, say) then covers only the measured requests.
    public func run(clients: Int, perClient: Int, kinds: Int, ready: () -> Void = {},
             target: @escaping @Sendable (Int, Int, String) -> String) -> ([[Double]], Double) {
        let results = ResultBox(kinds: kinds)
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let warmed = DispatchGroup()
        let port = self.port
        for client in 0..<clients {
            group.enter()
            warmed.enter()
            Thread {
                defer { group.leave() }
                let connection = LoadClient(port: port)
                var latencies = [[Double]](repeating: [], count: kinds)
                var previous = ""
                // Warm-up: a connection and a first answer, not measured.
                for round in 0..<3 { _ = try? connection.get(target(client, round, previous)) }
                warmed.leave()
                start.wait()
                for round in 0..<perClient {
                    let began = ContinuousClock.now
                    guard let body = try? connection.get(target(client, round, previous)) else { continue }
                    latencies[round % kinds].append(milliseconds(began, .now))
                    previous = Self.firstSID(body) ?? previous
                }
                results.add(latencies)
            }.start()
        }
        warmed.wait()
        ready()
        let wall = ContinuousClock.now
        for _ in 0..<clients { start.signal() }
        group.wait()
        return (results.all, seconds(ContinuousClock.now - wall))
    }

    /// The first `"sid":"…"` of a playlist answer. Searched byte by byte: the client runs on
    /// the same two cores as the station, and Foundation's `range(of:)` over every answer
    /// took 5–7 % of all CPU under load, time the station then did not have.
    public static func firstSID(_ body: [UInt8]) -> String? {
        let key = Array(#""sid":""#.utf8)
        guard body.count > key.count else { return nil }
        var index = 0
        while index <= body.count - key.count {
            if body[index] == key[0], body[index..<(index + key.count)].elementsEqual(key) {
                let start = index + key.count
                let end = body[start...].firstIndex(of: UInt8(ascii: "\"")) ?? body.count
                return String(decoding: body[start..<end], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }
}

/// Latencies gathered from the client threads.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [[Double]]

    init(kinds: Int) {
        values = [[Double]](repeating: [], count: kinds)
    }

    func add(_ more: [[Double]]) {
        lock.lock()
        for (kind, latencies) in more.enumerated() { values[kind] += latencies }
        lock.unlock()
    }

    var all: [[Double]] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
