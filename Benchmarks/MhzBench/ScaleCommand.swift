import BenchKit
import Foundation
import MusicLibrary
import TasteBench

/// `mhz-bench scale`: the release `mhz serve` over a large library (50 000 tracks by
/// default), measured where issue 25 set its limits: the station's memory once every
/// track's sound is measured and held, the analysis killed with SIGKILL part way and
/// resumed by the next start, the station's answers while the analysis runs; then, with the
/// sound vectors in memory, the playlist mix of logged-in listeners sent open loop at rising
/// rates (``OpenLoopLoad``: latency from each request's scheduled moment, the highest rate
/// whose p99 stays under 10 ms), CPU per answer at 500/s beside the constant channel list and
/// by kind of request, away from the minute's rescan; and the closed loop of 64 clients that
/// never pause as a capacity figure.
enum ScaleCommand {
    /// What the command line asked for.
    struct Options {
        /// Tracks in the generated library.
        var tracks = 50_000
        /// Concurrent clients of the load once the analysis is done.
        var clients = 64
        /// Requests of that load, over all clients.
        var requests = 4_000
        /// Seconds of analysis before the SIGKILL.
        var killAfter = 60.0
        /// The `mhz` binary measured.
        var mhz: String
        /// Where the library and the station's data are kept.
        var work: URL
        /// Starts over the station data and accounts the last run left (every track
        /// measured, the listeners' profiles as that load left them), without the first
        /// start and its kill: the memory and the load again, in minutes instead of twenty.
        var again = false
        /// The open loop's rates (requests per second), tried in order until p99 passes 10 ms
        /// at or above 500 a second.
        var rates: [Double] = [100, 250, 500, 750, 1000, 1500, 2000, 3000]
        /// Seconds each rate is held.
        var rateSeconds = 10.0

        /// The command line's usage line.
        static let usage = "usage: mhz-bench scale [--tracks N] [--clients N] [--requests N] [--kill-after SECONDS] "
            + "[--again] [--rates R,R,...] [--rate-seconds N] [--mhz PATH] [--work DIR]"

        /// Reads `arguments` (after `scale`), starting from the benchmark's defaults.
        init(_ arguments: [String], defaults: BenchOptions) throws(BenchUsage) {
            mhz = defaults.mhz
            work = defaults.work
            var arguments = BenchArguments(arguments, usage: Self.usage)
            while let argument = arguments.next() {
                switch argument {
                case "--tracks": tracks = Int(try arguments.positiveNumber(after: argument))
                case "--clients": clients = Int(try arguments.positiveNumber(after: argument))
                case "--requests": requests = Int(try arguments.positiveNumber(after: argument))
                case "--kill-after": killAfter = try arguments.positiveNumber(after: argument)
                case "--again": again = true
                case "--rates": rates = try arguments.positiveNumbers(after: argument)
                case "--rate-seconds": rateSeconds = try arguments.positiveNumber(after: argument)
                default: try arguments.common(argument, mhz: &mhz, work: &work)
                }
            }
        }
    }

    /// Runs it and prints the table (Markdown) on stdout.
    static func run(_ options: Options, progress: (String) -> Void) throws {
        try Executable.requireMhz(options.mhz)
        print("mhz-bench scale --tracks \(options.tracks) --clients \(options.clients) --requests \(options.requests) "
            + (options.again ? "--again " : "")
            + "--kill-after \(Int(options.killAfter)): \(options.mhz)")
        for line in Machine.describe(tools: [:]) { print(line) }
        let music = options.work.appendingPathComponent("library-\(options.tracks)", isDirectory: true)
        progress("scale: a library of \(options.tracks) files (generated once with ffmpeg, kept in \(options.work.path))")
        try BenchLibrary.ensure(music, count: options.tracks)
        let data = options.work.appendingPathComponent("scale-station", isDirectory: true)
        var table = ResultTable()

        if options.again {
            guard FileManager.default.fileExists(atPath: data.appendingPathComponent("mhz/station/station.sqlite").path) else {
                throw BenchError.tool("--again needs the station data of an earlier run in \(data.path)")
            }
        }
        let first = try options.again ? nil : firstStart(options, music: music, data: data, progress: progress)

        // The restart: what is left is measured, nothing twice; then the load.
        let users = (0..<options.clients).map { "bench\($0)" }
        progress(options.again ? "scale: started over the last run's data"
                 : "scale: restarted after kill -9 (\(users.count) accounts added first)")
        let second = try BenchStation(mhz: options.mhz, library: music.path, data: data, seed: 25,
                                      users: options.again ? [] : users,
                                      fresh: false, scanLimit: .seconds(3_600))
        defer { second.stop() }
        let secondPeak = MemoryWatch(pid: second.pid)
        try second.waitForSoundAnalysis(limit: .seconds(7_200))
        let opening = Self.analysisLine(second.logText, containing: "tracks to measure")
        let closing = Self.analysisLine(second.logText, containing: "sound analysis: measured ")
        let settled = MemoryWatch.current(second.pid)
        progress("scale: analysis done; \(options.clients) listeners log in")
        let credentials = try users.map { user -> String in
            let body = try LoadClient(port: second.port).post(
                "/j/app/login", form: "app_name=radio_android&version=100&username=\(user)&password=\(TasteHTTPStation.encode(BenchStation.password))")
            let login = try PeopleAnswer.login(body)
            return "&user_id=\(login.userID)&expire=\(login.expire)&token=\(login.token)"
        }
        let loadAfter = StationLoad(port: second.port)
        let perClient = max(20, options.requests / options.clients)
        progress("scale: playlist mix at \(options.clients) clients, then the channel list")
        // The station's CPU time per answer beside the latencies: on two cores shared with
        // builds the queue's length is the machine's, the CPU an answer costs is the station's.
        var cpuBefore = 0.0
        let byKind = loadAfter.run(clients: options.clients, perClient: perClient, kinds: 4,
                                   ready: { cpuBefore = ProcSample.read(second.pid)?.cpuSeconds ?? 0 },
                                   target: StationLoad.playlistMix(credentials))
        let playlist = (byKind.0.flatMap { $0 }, byKind.1)
        let cpuBetween = ProcSample.read(second.pid)?.cpuSeconds ?? 0
        var cpuWarmed = 0.0
        let reference = loadAfter.run(clients: options.clients, perClient: perClient, kinds: 1,
                                      ready: { cpuWarmed = ProcSample.read(second.pid)?.cpuSeconds ?? 0 },
                                      target: { _, _, _ in "/j/app/radio/channels" }).0[0]
        let cpuAfter = ProcSample.read(second.pid)?.cpuSeconds ?? 0
        let playlistCPU = 1000 * (cpuBetween - cpuBefore) / Double(max(1, playlist.0.count))
        let referenceCPU = 1000 * (cpuAfter - cpuWarmed) / Double(max(1, reference.count))
        let capacity = Double(playlist.0.count) / max(playlist.1, 0.001)

        // The open loop: the same mix sent on a schedule, rate after rate, latency from each
        // request's due moment; then the constant channel list at 500 a second, for the CPU
        // an answer costs beside it.
        progress("scale: open loop at \(options.rates.map { String(Int($0)) }.joined(separator: ", ")) requests/s, "
                 + "\(Int(options.rateSeconds)) s each")
        let open = OpenLoopLoad(port: second.port)
        let mix = StationLoad.playlistMix(credentials)
        let listeners = credentials.count
        var outcomes: [(OpenLoopLoad.Outcome, cpu: Double)] = []
        for rate in options.rates {
            var before = 0.0
            let outcome = open.run(rate: rate, seconds: options.rateSeconds, listeners: listeners,
                                   ready: { before = ProcSample.read(second.pid)?.cpuSeconds ?? 0 },
                                   target: { index, previous in mix(index % listeners, index / listeners, previous) })
            let cpu = 1000 * ((ProcSample.read(second.pid)?.cpuSeconds ?? before) - before) / Double(max(1, outcome.answered))
            outcomes.append((outcome, cpu))
            progress(String(format: "scale: %.0f/s: p50 %.2f ms, p99 %.2f ms, max %.1f ms, %d failed", rate,
                            outcome.latencies.median, outcome.latencies.p99, outcome.latencies.samples.last ?? 0,
                            outcome.failed))
            if rate >= 500, outcome.latencies.p99 >= 10 { break }
        }
        // CPU per answer at 500/s: the mix, the channel list, and each kind of the mix alone,
        // each held where no rescan of the library fell (``cpuPerAnswer``).
        let scansBefore = LibraryScans.read(port: second.port)
        let mixCPU = cpuPerAnswer(open, station: second, listeners: listeners, rateSeconds: options.rateSeconds,
                                  progress: progress) { index, previous in mix(index % listeners, index / listeners, previous) }
        let channelCPU = cpuPerAnswer(open, station: second, listeners: listeners, rateSeconds: options.rateSeconds,
                                      progress: progress) { _, _ in "/j/app/radio/channels" }
        let kindNames = StationLoad.playlistMixKinds
        let kindCPU = kindNames.indices.map { kind in
            // Round `kind` of every listener's cycle: the playlist mix's own request of that kind.
            cpuPerAnswer(open, station: second, listeners: listeners, rateSeconds: options.rateSeconds, progress: progress) {
                index, previous in mix(index % listeners, 4 * (index / listeners) + kind, previous)
            }
        }
        let scansAfter = LibraryScans.read(port: second.port)
        let secondMemory = secondPeak.stop()
        let p = Stats(playlist.0), r = Stats(reference)

        if let first {
            table.add("first scan of \(options.tracks) files", mhz: String(format: "%.0f s", first.scanSeconds),
                      reference: "—", ratio: "—")
            table.add("channel list while the analysis runs, p50 / p99 at 4 clients (n=\(first.during.samples.count))",
                      mhz: "\(ms(first.during.median)) / \(ms(first.during.p99))",
                      reference: "\(ms(r.median)) / \(ms(r.p99)) at \(options.clients) clients once it is done",
                      ratio: "—", target: "answers while measuring: \(first.analysisBegan && !first.during.samples.isEmpty ? "met" : "**not met**")")
            table.add("kill -9 after \(Int(options.killAfter)) s of analysis; the restart's opening line",
                      mhz: opening ?? "none (every track was measured before the kill)",
                      reference: "\(options.tracks) tracks", ratio: "—",
                      target: first.finishedEarly ? "the analysis ended before the kill: nothing shown" : "resumed: only the rest measured")
            table.add("the restart's analysis", mhz: closing ?? "none",
                      reference: "—", ratio: "—")
        }
        table.add("station RSS with \(options.tracks) tracks measured, settled (VmRSS) / peak of the restart incl. the load (VmHWM)",
                  mhz: String(format: "%.1f / %.1f MiB", settled, secondMemory),
                  reference: "200 MiB (the limit)", ratio: String(format: "%.2f×", secondMemory / 200),
                  target: "< 200 MiB: \(secondMemory < 200 ? "met" : "**not met**")")
        if let first {
            table.add("peak RSS of the first start (scan, then analysis until the kill)", mhz: String(format: "%.1f MiB", first.peak),
                      reference: "200 MiB", ratio: String(format: "%.2f×", first.peak / 200))
        }
        let at500 = outcomes.first { $0.0.rate == 500 }
        if let (outcome, cpu) = at500 {
            let stats = outcome.latencies
            table.add("open loop: playlist mix at 500 requests/s over \(listeners) listeners, latency from the scheduled "
                      + "moment p50 / p99 / max (n=\(outcome.answered), \(outcome.failed) failed)",
                      mhz: "\(ms(stats.median)) / \(ms(stats.p99)) / \(ms(stats.samples.last ?? 0))",
                      reference: "\(ms(channelCPU.outcome.latencies.median)) / \(ms(channelCPU.outcome.latencies.p99)) "
                          + "channel list at 500/s",
                      ratio: String(format: "%.2f× p99", stats.p99 / max(channelCPU.outcome.latencies.p99, 0.001)),
                      target: "p99 < 10 ms: \(stats.p99 < 10 ? "met" : "**not met**")")
            table.add("open loop: station CPU per answer at 500/s, the mix beside the constant channel list "
                      + "(no rescan inside; the ladder's 500/s run gave \(String(format: "%.3f ms", cpu)) for the mix)",
                      mhz: String(format: "%.3f ms", mixCPU.cpu), reference: String(format: "%.3f ms channel list", channelCPU.cpu),
                      ratio: String(format: "%.2f×", mixCPU.cpu / max(channelCPU.cpu, 0.000_001)),
                      target: "≤ 3×: \(mixCPU.cpu <= 3 * channelCPU.cpu ? "met" : "**not met**")")
        }
        table.add("open loop: station CPU per answer at 500/s by kind of request, each alone",
                  mhz: zip(kindNames, kindCPU).map { String(format: "%@ %.3f ms", $0, $1.cpu) }.joined(separator: ", "),
                  reference: String(format: "%.3f ms channel list", channelCPU.cpu), ratio: "—")
        if let scansBefore, let scansAfter, scansAfter.count > scansBefore.count {
            let scans = scansAfter.count - scansBefore.count
            let rerun = ([mixCPU, channelCPU] + kindCPU).map(\.rescans).reduce(0, +)
            table.add("a rescan of the unchanged library (every minute), mean time over the \(scans) during the CPU runs "
                      + "(\(rerun) run\(rerun == 1 ? "" : "s") held again for one)",
                      mhz: String(format: "%.2f s", (scansAfter.seconds - scansBefore.seconds) / Double(scans)),
                      reference: "—", ratio: "—")
        }
        let underTen = outcomes.filter { $0.0.latencies.p99 < 10 }.map(\.0.rate).max()
        table.add("open loop: the highest rate tried whose p99 stayed under 10 ms (each rate's p99: "
                  + outcomes.map { String(format: "%.0f/s %.1f ms", $0.0.rate, $0.0.latencies.p99) }.joined(separator: ", ") + ")",
                  mhz: underTen.map { String(format: "%.0f requests/s", $0) } ?? "none", reference: "500 requests/s",
                  ratio: underTen.map { String(format: "%.2f×", $0 / 500) } ?? "—",
                  target: "≥ 500/s: \((underTen ?? 0) >= 500 ? "met" : "**not met**")")
        table.add("closed loop: \(options.clients) clients that never pause, the mix (n, s, r, liked_songs) with "
                  + "\(options.tracks) tracks measured: capacity, and p50 / p99 (queued behind each other; no target)",
                  mhz: String(format: "%.0f answers/s, ", capacity) + "\(ms(p.median)) / \(ms(p.p99))",
                  reference: "\(ms(r.median)) / \(ms(r.p99)) channel list (constant JSON)",
                  ratio: String(format: "%.2f× / %.2f×", p.median / r.median, p.p99 / r.p99))
        let kinds = zip(kindNames, byKind.0).map { name, latencies in
            let stats = Stats(latencies)
            return "\(name) \(ms(stats.median)) / \(ms(stats.p99))"
        }
        table.add("the same mix by request (s and r answered with a list), p50 / p99", mhz: kinds.joined(separator: "; "), reference: "—", ratio: "—")
        table.add("station CPU per answer over the mix (the warm-up's first lists not counted)",
                  mhz: String(format: "%.3f ms", playlistCPU),
                  reference: String(format: "%.3f ms channel list", referenceCPU),
                  ratio: String(format: "%.2f×", playlistCPU / max(referenceCPU, 0.000_001)))
        print("")
        print(table.markdown)
        print("")
        print("load average at the end: \(Machine.loadAverage())")
    }

    /// What the first start measured.
    private struct FirstStart {
        var scanSeconds: Double
        var during: Stats
        var analysisBegan: Bool
        var finishedEarly: Bool
        var peak: Double
    }

    /// The first start: scanned, then measured for a while, answering meanwhile, killed.
    private static func firstStart(_ options: Options, music: URL, data: URL,
                                   progress: (String) -> Void) throws -> FirstStart {
        progress("scale: first start, the scan")
        let first = try BenchStation(mhz: options.mhz, library: music.path, data: data, seed: 25, users: [],
                                     scanLimit: .seconds(3_600))
        let firstPeak = MemoryWatch(pid: first.pid)
        progress("scale: scanned in \(Int(first.scanSeconds)) s; answering while the analysis runs")
        // The load runs once the analysis has said it began (its survey of a large library
        // takes a moment after the station serves), so its answers are measured during it.
        let opening = "sound analysis: \(ProgressPace.grouped(options.tracks)) of \(ProgressPace.counted(options.tracks, "track"))"
        let began = ContinuousClock.now
        while !first.logText.contains(opening), ContinuousClock.now - began < .seconds(60) { usleep(50_000) }
        let analysisBegan = first.logText.contains(opening)
        let load = StationLoad(port: first.port)
        let during = load.run(clients: 4, perClient: 100) { _, _, _ in "/j/app/radio/channels" }
        let duringStats = Stats(during.0)
        let waited = max(0, options.killAfter - seconds(ContinuousClock.now - first.started) + first.scanSeconds)
        Thread.sleep(forTimeInterval: waited)
        let finishedEarly = first.logText.contains("sound analysis: measured ")
        first.killNine()
        let firstMemory = firstPeak.stop()
        return FirstStart(scanSeconds: first.scanSeconds, during: duringStats, analysisBegan: analysisBegan,
                          finishedEarly: finishedEarly, peak: firstMemory)
    }

    private static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

    /// The station's CPU time per answer of `target` sent open loop at 500 requests/s for
    /// `rateSeconds`, and that run's outcome. The station rescans its library every minute,
    /// about half a second of CPU with 50 000 files, which lands in one run of ten seconds
    /// in six: a run a rescan fell into (its count in `/metrics` moved) is held again, up to
    /// twice, so the CPU compared is the answers', not the minute's rescan's.
    private static func cpuPerAnswer(_ open: OpenLoopLoad, station: BenchStation, listeners: Int, rateSeconds: Double,
                                     progress: (String) -> Void,
                                     target: @escaping @Sendable (Int, String) -> String)
        -> (cpu: Double, outcome: OpenLoopLoad.Outcome, rescans: Int) {
        var rescans = 0
        // The count after one run is the count before the next.
        var scans = LibraryScans.read(port: station.port)?.count
        while true {
            var before = 0.0
            let outcome = open.run(rate: 500, seconds: rateSeconds, listeners: listeners,
                                   ready: { before = ProcSample.read(station.pid)?.cpuSeconds ?? 0 }, target: target)
            let cpu = 1000 * ((ProcSample.read(station.pid)?.cpuSeconds ?? before) - before) / Double(max(1, outcome.answered))
            let after = LibraryScans.read(port: station.port)?.count
            guard let counted = scans, after != counted, rescans < 2 else { return (cpu, outcome, rescans) }
            scans = after
            rescans += 1
            progress(String(format: "scale: a rescan fell into a CPU run (%.3f ms per answer): held again", cpu))
        }
    }

    /// The first log line holding `text`, from its `sound analysis:` on.
    private static func analysisLine(_ log: String, containing text: String) -> String? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(text) }),
              let start = line.range(of: "sound analysis: ") else { return nil }
        return String(line[start.lowerBound...])
    }
}

/// The resident memory of another process, sampled every 100 ms on a thread of its own
/// until stopped: `/proc/PID/status`'s `VmHWM` is the kernel's own peak, read last.
final class MemoryWatch: @unchecked Sendable {
    private let pid: Int32
    private let lock = NSLock()
    private var running = true
    private var peak = 0.0
    private let done = DispatchSemaphore(value: 0)

    /// Starts watching `pid`.
    init(pid: Int32) {
        self.pid = pid
        Thread { [self] in
            while lock.withLock({ running }) {
                if let sample = ProcSample.read(pid) { lock.withLock { peak = max(peak, sample.peakRSSMiB) } }
                Thread.sleep(forTimeInterval: 0.1)
            }
            done.signal()
        }.start()
    }

    /// Stops watching; the peak seen (MiB).
    func stop() -> Double {
        lock.withLock { running = false }
        done.wait()
        if let sample = ProcSample.read(pid) { lock.withLock { peak = max(peak, sample.peakRSSMiB) } }
        return lock.withLock { peak }
    }

    /// `VmRSS` of `pid` now, MiB.
    static func current(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }
}
