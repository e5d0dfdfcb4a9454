// StationBench: scan rate and playlist latency of the station, each beside a reference.
//
//   swift build -c release --product StationBench
//   .build/release/StationBench [--files 2000] [--requests 4000] [--concurrency 1,16,64] [--work DIR]
//
// Scan: the station's first scan (TagLib, cover extraction, SQLite cache) against a plain
// TagLib pass over the same files (LibraryScanner.scan, no database); the incremental
// rescan against a bare walk of the folder with stat(2), the least any rescan must do.
// Load: playlist requests (`n` and `s` reports of logged-in listeners) at each concurrency
// against the channel list (a constant JSON answer) through the same server and client.
import Foundation
import Station

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

let fileCount = Int(option("--files", "2000")) ?? 2000
let requestsPerLevel = Int(option("--requests", "4000")) ?? 4000
let levels = option("--concurrency", "1,16,64").split(separator: ",").compactMap { Int($0) }
let work = URL(fileURLWithPath: option("--work", NSTemporaryDirectory() + "mhz-station-bench"), isDirectory: true)
let music = work.appendingPathComponent("library", isDirectory: true)

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func format(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }

print("StationBench: \(fileCount) files, \(requestsPerLevel) requests per level, concurrency \(levels)")
try BenchLibrary.ensure(music, count: fileCount)

// MARK: - Scan

let referenceStart = ContinuousClock.now
let referenceTracks = try LibraryScanner(root: music).scan()
let referenceRate = Double(referenceTracks.count) / seconds(ContinuousClock.now - referenceStart)

let data = work.appendingPathComponent("data-\(getpid())", isDirectory: true)
defer { try? FileManager.default.removeItem(at: data) }
let station = try await Station(configuration: StationConfiguration(
    library: music, dataDirectory: data, seed: 1, rescanInterval: nil))
let first = station.lastScan
let firstRate = Double(first.files) / seconds(first.duration)

let walkStart = ContinuousClock.now
var walked = 0
if let walker = FileManager.default.enumerator(atPath: music.path) {
    let prefix = music.path + "/"
    while let relative = walker.nextObject() as? String {
        var info = stat()
        if stat(prefix + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { walked += 1 }
    }
}
let walkRate = Double(walked) / seconds(ContinuousClock.now - walkStart)
// The median of several rescans: one is a few milliseconds, easily disturbed.
var rescans: [ScanSummary] = []
for _ in 0..<max(1, Int(option("--rescans", "9")) ?? 9) { rescans.append(try await station.rescan()) }
let rescan = rescans.sorted { $0.duration < $1.duration }[rescans.count / 2]
let rescanRate = Double(rescan.files) / seconds(rescan.duration)

print("scan  first  \(format(firstRate)) files/s (\(first.read) read; TagLib-only reference \(format(referenceRate)) files/s, ratio \(format(firstRate / referenceRate, 2)))")
print("scan  rescan \(format(rescanRate)) files/s (\(rescan.read) read; walk+stat reference \(format(walkRate)) files/s, ratio \(format(rescanRate / walkRate, 2)); \(format(rescanRate / firstRate, 1))x the first scan)")

// MARK: - Load

let base = try await station.start()
let port = base.port!
let maxClients = levels.max() ?? 1
var credentials: [String] = []
for index in 0..<maxClients {
    let name = "bench\(index)"
    try await Station.addUser(name: name, password: "pw", cost: 4, dataDirectory: data)
    let body = try LoadClient(port: port).post("/j/app/login", form: "app_name=radio_android&version=100&username=\(name)&password=pw")
    let json = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    guard let id = json["user_id"] as? String, let token = json["token"] as? String, let expire = json["expire"] as? String
    else { throw BenchError.protocolError(String(decoding: body, as: UTF8.self)) }
    credentials.append("&user_id=\(id)&expire=\(expire)&token=\(token)")
}

/// Runs `perClient` requests on each of `clients` threads; returns latencies (ms) and wall time (s).
func load(clients: Int, perClient: Int, target: @escaping @Sendable (Int, Int, String) -> String) -> ([Double], Double) {
    let results = ResultBox()
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for client in 0..<clients {
        group.enter()
        Thread {
            defer { group.leave() }
            let connection = LoadClient(port: port)
            var latencies: [Double] = []
            var previous = ""
            // Warm-up: a connection and a first answer, not measured.
            for round in 0..<3 { _ = try? connection.get(target(client, round, previous)) }
            start.wait()
            for round in 0..<perClient {
                let began = ContinuousClock.now
                guard let body = try? connection.get(target(client, round, previous)) else { continue }
                latencies.append(seconds(ContinuousClock.now - began) * 1000)
                previous = firstSID(body) ?? previous
            }
            results.add(latencies)
        }.start()
    }
    Thread.sleep(forTimeInterval: 0.2)
    let wall = ContinuousClock.now
    for _ in 0..<clients { start.signal() }
    group.wait()
    return (results.all, seconds(ContinuousClock.now - wall))
}

/// The first `"sid":"…"` of a playlist answer.
func firstSID(_ body: [UInt8]) -> String? {
    let text = String(decoding: body, as: UTF8.self)
    guard let range = text.range(of: "\"sid\":\"") else { return nil }
    return String(text[range.upperBound...].prefix { $0 != "\"" })
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

let frozenCredentials = credentials
for clients in levels {
    let perClient = max(20, requestsPerLevel / clients)
    let (playlist, playlistWall) = load(clients: clients, perClient: perClient) { client, round, previous in
        let type = round % 2 == 1 && !previous.isEmpty ? "s&sid=\(previous)" : "n&sid="
        return "/j/app/radio/people?app_name=radio_android&version=100\(frozenCredentials[client])&channel=0&type=\(type)"
    }
    let (reference, referenceWall) = load(clients: clients, perClient: perClient) { _, _, _ in "/j/app/radio/channels" }
    let p = playlist.sorted(), r = reference.sorted()
    let p50 = percentile(p, 0.5), p99 = percentile(p, 0.99), r50 = percentile(r, 0.5), r99 = percentile(r, 0.99)
    print("load  c=\(clients) playlist p50 \(format(p50, 2)) ms p99 \(format(p99, 2)) ms \(format(Double(p.count) / playlistWall)) req/s"
        + " | channels reference p50 \(format(r50, 2)) ms p99 \(format(r99, 2)) ms \(format(Double(r.count) / referenceWall)) req/s"
        + " | ratio p50 \(format(p50 / r50, 2)) p99 \(format(p99 / r99, 2)) (\(p.count) + \(r.count) requests)")
}
await station.stop()

/// Latencies gathered from the client threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []

    func add(_ more: [Double]) {
        lock.lock()
        values += more
        lock.unlock()
    }

    var all: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
