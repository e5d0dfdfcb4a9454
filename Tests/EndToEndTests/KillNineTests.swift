import Foundation
import SeededRandom
import Store
import TestSupport
import Testing

/// The built mhz killed with SIGKILL at seeded random instants while it writes (positions,
/// the outbox, downloads, trashed songs), run after run, against the real station: after
/// every kill the database opens and holds every report mhz had narrated that the station
/// does not have yet; in the end every narrated report reached the station, and none went
/// more often than asked but for one per kill: the report answered by the station but not
/// yet struck from the outbox when the kill came, the one repeat the radio guide admits.
struct KillNineTests {
    /// A report as the station's log and mhz's narration both name it: `type sid`.
    typealias Key = String

    /// What the runs asked for and what mhz narrated.
    struct Ledger {
        /// Reports mhz narrated (their event was read): each must reach the station.
        var narrated: [Key: Int] = [:]
        /// Reports asked for, narrated or not (a kill may fall between the command and its
        /// event): the station may have these, and more only by the admitted repeats.
        var asked: [Key: Int] = [:]
        /// Songs whose download mhz narrated: each keeps its record.
        var downloads: Set<String> = []
        var kills = 0
    }

    static let reportOfEvent = ["liked": "r", "skipped": "s", "trashed": "b"]

    static func count(_ keys: [Key]) -> [Key: Int] { keys.reduce(into: [:]) { $0[$1, default: 0] += 1 } }

    @Test func killNineAtRandomInstantsLosesNothingMhzHadNarrated() async throws {
        try await HeadlessRadioTests.LiveStation.with { station in try await killRuns(station) }
    }

    /// Ten runs each killed at a random moment, then one run to its end.
    func killRuns(_ station: HeadlessRadioTests.LiveStation) async throws {
        var random = SplitMix64(seed: 16)
        let data = try TemporaryDirectory(prefix: "mhz-kill9")
        let arguments = ["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                         "--data-dir", data.url.path, "--channel", "0"]
        let environment = ["XDG_CONFIG_HOME": data.url.path, "XDG_RUNTIME_DIR": data.path("run").path]
        var ledger = Ledger()
        func received() -> [Key: Int] {
            Self.count(station.reports.compactMap { request in
                guard let type = request.parameter("type"), ["r", "s", "b"].contains(type) else { return nil }
                return "\(type) \(request.parameter("sid") ?? "-")"
            })
        }

        for run in 0..<10 {
            try await BuiltMhz(arguments, environment: environment).whileRunning { mhz in
                var playing = try await mhz.waitFor("playing", timeout: 30)
                let actions = Int.random(in: 1...4, using: &random)
                for step in 0..<actions {
                    let sid = try #require(playing.event["sid"])
                    let word = ["like", "skip", "trash", "download"].randomElement(using: &random)!
                    let event = ["like": "liked", "skip": "skipped", "trash": "trashed", "download": "download"][word]!
                    if let type = Self.reportOfEvent[event] { ledger.asked["\(type) \(sid)", default: 0] += 1 }
                    mhz.send(word)
                    // The last command of a run is left to the kill, which may cut it off anywhere.
                    guard step < actions - 1 else { break }
                    let said = try await mhz.waitFor(event, after: playing.index) { $0["sid"] == sid }
                    if word == "skip" || word == "trash" { playing = try await mhz.waitFor("playing", after: said.index, timeout: 30) }
                }
                // A clock, on purpose: the kill's moment is drawn at random (seeded) within
                // 400 ms of the last command, so that run after run it cuts mhz's writes
                // at different points; no event could stand for "somewhere in the middle".
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...400, using: &random)))
                mhz.signal(SIGKILL)
                _ = try await mhz.exit()
                ledger.kills += 1
                #expect(!mhz.events.contains { $0.name == "error" && ($0["message"] ?? "").hasPrefix("The database was damaged") },
                        "run \(run): \(mhz.lines)")
                try check(after: run, mhz, data, received(), &ledger)
            }
        }

        // One more run, to the end: everything waiting goes out, and mhz quits cleanly.
        try await BuiltMhz(arguments, environment: environment).whileRunning { last in
            let playing = try await last.waitFor("playing", timeout: 30)
            func missing() -> [Key] {
                let now = received()
                return ledger.narrated.filter { now[$0.key, default: 0] < $0.value }.map(\.key)
            }
            _ = await eventually(within: .seconds(30)) { missing().isEmpty }
            #expect(missing().isEmpty, "never reached the station: \(missing())")
            // `pending_reports` is left out when none wait.
            _ = try await last.status(after: playing.index, within: .seconds(30)) { ($0.number("pending_reports") ?? 0) == 0 }
            last.send("quit")
            #expect(try await last.exit() == 0)
        }

        let final = received()
        let repeats = final.reduce(0) { $0 + max(0, $1.value - ledger.asked[$1.key, default: 0]) }
        #expect(repeats <= ledger.kills, "sent more than asked: \(final.filter { $0.value > ledger.asked[$0.key, default: 0] })")
        #expect(ledger.narrated.values.reduce(0, +) >= 10, "the runs did something: \(ledger.narrated)")
    }

    /// After a kill: the database opens, and its outbox with what the station already has
    /// covers every report narrated so far; every narrated download has its record.
    func check(after run: Int, _ mhz: BuiltMhz, _ data: TemporaryDirectory, _ received: [Key: Int],
               _ ledger: inout Ledger) throws {
        for event in mhz.events {
            guard let sid = event["sid"] else { continue }
            if let type = Self.reportOfEvent[event.name] { ledger.narrated["\(type) \(sid)", default: 0] += 1 }
            if event.name == "download" { ledger.downloads.insert(sid) }
        }
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let waiting = Self.count(try database.pendingReports().map { "\($0.type) \($0.sid ?? "-")" })
        for (key, count) in ledger.narrated {
            #expect(received[key, default: 0] + waiting[key, default: 0] >= count,
                    "run \(run): \(key) narrated \(count)×; the station has \(received[key, default: 0]), the outbox \(waiting[key, default: 0])")
        }
        let recorded = Set(try database.downloads().compactMap(\.sid))
        #expect(ledger.downloads.isSubset(of: recorded), "run \(run): narrated downloads \(ledger.downloads), recorded \(recorded)")
    }
}
