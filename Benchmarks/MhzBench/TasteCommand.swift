import BenchKit
import Foundation
import TasteBench

/// `mhz-bench taste`: simulated listeners against the release `mhz serve`, through the app
/// API as mhz itself talks to it, each beside a shuffle (the floor) and an oracle (the
/// ceiling) on the same library with the same verdicts; a table per listener × library,
/// the variety dial, and a line per target of issue 25. Every run has a station of its own
/// (a fresh data directory), so no listener learns from another unless the run is about
/// that (the household). Seeded: the same seed, the same numbers.
enum TasteCommand {
    /// Runs the benchmark and prints the report (Markdown) on stdout.
    static func run(_ options: TasteOptions, progress: (String) -> Void) throws {
        try Executable.requireMhz(options.mhz)
        let began = ContinuousClock.now
        var command = "mhz-bench taste " + (options.seeds.count > 1
            ? "--seeds " + options.seeds.map(String.init).joined(separator: ",") : "--seed \(options.seed)")
            + " --songs \(options.songCount)"
        if options.quick { command += " --quick" }
        command += " --library " + options.libraries.map(\.rawValue).joined(separator: ",")
        command += " --listener " + options.listeners.map(\.rawValue).joined(separator: ",")
        if !options.dial.isEmpty { command += " --variety " + options.dial.map(TasteReport.number).joined(separator: ",") }
        print("\(command): \(options.mhz)")
        for line in Machine.describe(tools: ["ffmpeg": Machine.version(Executable.find("ffmpeg"), ["-version"])]) {
            print(line)
        }
        if let built = (try? FileManager.default.attributesOfItem(atPath: options.mhz))?[.modificationDate] as? Date {
            print("mhz: \(options.mhz), built \(ISO8601DateFormatter().string(from: built))")
        }
        try FileManager.default.createDirectory(at: options.work, withIntermediateDirectories: true)

        var runs: [TasteRun] = []
        var notes: [String] = []
        var dialed = false
        // Every seed after the first: its plain runs, judged on the mean with the first's.
        var otherSeeds: [[TasteRun]] = []
        for seed in options.seeds.dropFirst() {
            var again = options
            again.seed = seed
            var seedRuns: [TasteRun] = []
            for name in options.libraries {
                guard case .success(let library) = try TasteLibraries.load(name, work: options.work, progress: progress) else { continue }
                for kind in options.listeners {
                    guard case .success(let listener) = ListenerCatalog.make(kind, for: library, songs: again.songCount, seed: seed)
                    else { continue }
                    progress("seed \(seed): \(kind.rawValue) × \(name.rawValue): \(again.songCount) songs")
                    seedRuns.append(try measure(listener, on: library, variety: nil, again, progress: progress))
                }
            }
            otherSeeds.append(seedRuns)
        }
        for name in options.libraries {
            let library: TasteLibrary
            switch try TasteLibraries.load(name, work: options.work, progress: progress) {
            case .success(let loaded): library = loaded
            case .failure(let skip):
                notes.append("\(name.rawValue): \(skip.reason)")
                continue
            }
            for kind in options.listeners {
                switch ListenerCatalog.make(kind, for: library, songs: options.songCount, seed: options.seed) {
                case .failure(let reason):
                    notes.append("\(kind.rawValue) × \(name.rawValue): not run, \(reason.reason)")
                case .success(let listener):
                    progress("\(kind.rawValue) × \(name.rawValue): \(options.songCount) songs")
                    runs.append(try measure(listener, on: library, variety: nil, options, progress: progress))
                }
            }
            // The dial turns for the artists listener on the first library that has one.
            if !dialed, !options.dial.isEmpty, case .success(let listener) =
                ListenerCatalog.make(.artists, for: library, songs: options.songCount, seed: options.seed) {
                dialed = true
                for variety in options.dial {
                    progress("artists × \(name.rawValue), variety=\(TasteReport.number(variety))")
                    runs.append(try measure(listener, on: library, variety: variety, options, progress: progress))
                }
            }
        }

        let plain = runs.filter { $0.variety == nil }
        print("")
        print("Per run, over all its songs (shuffle: mean of \(options.shuffleRuns) runs; songs to pass 90 %: the first "
            + "song ending 20 in a row with at least 18 not disliked):")
        print("")
        print(TasteReport.summary(plain))
        print("")
        print("Targets (issue 25):")
        print("")
        for line in TasteTargets.judge(runs) { print(line.markdown) }
        if !otherSeeds.isEmpty {
            let all = [runs.filter { $0.variety == nil }] + otherSeeds
            for (seed, seedRuns) in zip(options.seeds.dropFirst(), otherSeeds) {
                print("")
                print("Seed \(seed):")
                print("")
                for line in TasteTargets.judge(seedRuns) { print(line.markdown) }
            }
            print("")
            print("Over the seeds \(options.seeds.map(String.init).joined(separator: ", ")) (one seed is sixty songs: "
                + "these are the lines to judge a change by):")
            print("")
            for line in TasteTargets.judgeMean(all) { print(line.markdown) }
        }
        if let dial = TasteReport.dial(runs) {
            print("")
            print("The variety dial (`variety=` on every request; the same listener and seed):")
            print("")
            print(dial)
        }
        for run in plain {
            print("")
            print(TasteReport.detail(run))
        }
        if !notes.isEmpty {
            print("")
            for note in notes { print("- \(note)") }
        }
        print("")
        print("taste: \(runs.count + otherSeeds.map(\.count).reduce(0, +)) runs in " + String(format: "%.0f s", seconds(ContinuousClock.now - began))
            + "; libraries kept in \(options.work.path); load average at the end: \(Machine.loadAverage())")
    }

    /// One listener on one library: a station of its own (a housemate first, for the
    /// household), then the references.
    static func measure(_ listener: Listener, on library: TasteLibrary, variety: Double?,
                        _ options: TasteOptions, progress: (String) -> Void) throws -> TasteRun {
        let began = ContinuousClock.now
        let label = "\(library.name)-\(listener.kind.rawValue)" + (variety.map { "-variety-\(TasteReport.number($0))" } ?? "")
        let data = options.work.appendingPathComponent("taste-stations/\(label)", isDirectory: true)
        let users = listener.housemateSongs > 0 ? ["housemate", "listener"] : ["listener"]
        let server = try BenchStation(mhz: options.mhz, library: library.folder, data: data, seed: options.seed, users: users)
        defer { server.stop() }
        // A listener begins with a station that has heard its whole library, as one that
        // has run a while has (how fast it hears is `mhz-bench sound`'s business).
        try server.waitForSoundAnalysis()
        if let analysis = server.analysisSeconds {
            progress("  the station measured its library's sound in " + String(format: "%.0f s", analysis))
        }
        let songs = options.songCount
        if listener.housemateSongs > 0 {
            let housemate = Listener(kind: .artists, description: listener.description, tastes: listener.tastes)
            _ = try TasteSession.listen(to: try server.login("housemate", variety: variety), as: housemate, in: library,
                                        songs: listener.housemateSongs, seed: options.seed &+ 1)
        }
        let outcome = try TasteSession.listen(to: try server.login("listener", variety: variety), as: listener,
                                              in: library, songs: songs, seed: options.seed)
        let elapsed = seconds(ContinuousClock.now - began)
        let shuffles = (0..<options.shuffleRuns).map { run in
            References.shuffle(library, listener, songs: songs, seed: options.seed, run: run)
        }
        return TasteRun(library: library, listener: listener, variety: variety, station: outcome.heard,
                        shuffles: shuffles, oracle: References.oracle(library, listener, songs: songs, seed: options.seed),
                        firstList: outcome.client.firstList.compactMap { library.truth(title: $0.title, artist: $0.artist) },
                        songsAnswered: outcome.client.songsAnswered, songsWithReason: outcome.client.songsWithReason,
                        reports: outcome.client.reportsSent, seconds: elapsed)
    }
}
