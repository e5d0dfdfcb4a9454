import BenchKit
import Foundation

/// `mhz-bench live`: the station's live broadcast of one channel beside Liquidsoap's
/// `output.file.hls` making the same three AAC variants (64, 128 and 192 kbit/s, 2 s MPEG-TS
/// segments) from the same library — CPU per channel and peak memory as ratios — and the
/// broadcast under a fan-out of simulated listeners that poll the 128 kbit/s playlist every
/// target duration and fetch each new segment, as a player does: playlist latency, and the
/// station's CPU beside the broadcast's alone; then two headless `mhz --live` players started
/// seconds apart, and how far apart they hear each song begin. Those phases play hard cuts at
/// the mastered level; ``LiveSegue`` measures a levelled, crossfaded channel beside
/// Liquidsoap's `crossfade()` and ReplayGain `amplify()`.
enum LiveCommand {
    /// What the command line asked for.
    struct Options {
        /// Seconds each measured phase lasts.
        var seconds = 30.0
        /// Simulated listeners of the fan-out.
        var listeners = 200
        /// The `mhz` binary measured.
        var mhz: String
        /// Where the library and the stations' data are kept.
        var work: URL

        /// The command line's usage line.
        static let usage = "usage: mhz-bench live [--seconds N] [--listeners N] [--mhz PATH] [--work DIR]"

        /// Reads `arguments` (after `live`), starting from the benchmark's defaults.
        init(_ arguments: [String], defaults: BenchOptions) throws(BenchUsage) {
            mhz = defaults.mhz
            work = defaults.work
            var arguments = BenchArguments(arguments, usage: Self.usage)
            while let argument = arguments.next() {
                switch argument {
                case "--seconds": seconds = try arguments.positiveNumber(after: argument)
                case "--listeners": listeners = Int(try arguments.positiveNumber(after: argument))
                default: try arguments.common(argument, mhz: &mhz, work: &work)
                }
            }
        }
    }

    /// Runs it and prints the table (Markdown) on stdout.
    static func run(_ options: Options, progress: (String) -> Void) throws {
        try Executable.requireMhz(options.mhz)
        let liquidsoap = Executable.find("liquidsoap")
        print("mhz-bench live --seconds \(Int(options.seconds)) --listeners \(options.listeners): \(options.mhz)")
        for line in Machine.describe(tools: liquidsoap.map { ["liquidsoap": Machine.version($0, ["--version"])] } ?? [:]) {
            print(line)
        }
        let music = options.work.appendingPathComponent("library-300", isDirectory: true)
        try BenchLibrary.ensure(music, count: 300)
        var table = ResultTable()

        progress("live: mhz serve over \(music.path), waiting for its sound analysis")
        let station = try BenchStation(mhz: options.mhz, library: music.path,
                                       data: options.work.appendingPathComponent("live-station", isDirectory: true),
                                       seed: 25, users: [],
                                       // Hard cuts at the mastered level, as Liquidsoap's plain playlist
                                       // beside it: the levelled, crossfaded channel is LiveSegue's.
                                       config: "[live]\ncrossfade = \"0s\"\n[station]\nloudness = \"off\"\n")
        defer { station.stop() }
        try station.waitForSoundAnalysis()
        let channel = try publicChannel(port: station.port)
        let client = LoadClient(port: station.port)
        let idle = cpuOver(pid: station.pid, seconds: 5)
        // The first request puts the channel on the air; it is answered once three segments are out.
        _ = try client.get("/live/\(channel).m3u8")
        progress("live: channel \(channel) on the air; \(Int(options.seconds)) s alone")
        let alone = cpuOver(pid: station.pid, seconds: options.seconds) {
            _ = try? client.get("/live/\(channel)/128.m3u8")
        }
        progress("live: \(options.listeners) listeners for \(Int(options.seconds)) s")
        let fan = FanOut(port: station.port, channel: channel, listeners: options.listeners)
        let loaded = cpuOver(pid: station.pid, seconds: options.seconds)
        let fanStats = fan.stop()
        let mhzPeak = ProcSample.read(station.pid)?.peakRSSMiB ?? 0
        progress("live: two mhz --live players, the second started 5 s after the first, for \(Int(max(30, options.seconds))) s")
        let step = try twoPlayers(options, port: station.port, channel: channel, seconds: max(30, options.seconds))

        var lq: (cpu: Double, peak: Double)?
        if let liquidsoap {
            progress("live: liquidsoap's output.file.hls for \(Int(options.seconds)) s")
            lq = try liquidsoapRun(liquidsoap, music: music, work: options.work, seconds: options.seconds)
        }

        let alonePerChannel = alone - idle
        table.add("CPU of one channel on the air (3 variants), share of a core; the station idle: \(percent(idle))",
                  mhz: percent(alonePerChannel),
                  reference: lq.map { "\(percent($0.cpu)) liquidsoap \(liquidsoapVersion(liquidsoap))" } ?? "liquidsoap not installed",
                  ratio: lq.map { String(format: "%.2f×", alonePerChannel / $0.cpu) } ?? "—",
                  target: lq.map { alonePerChannel <= $0.cpu ? "≤ 1×: met" : "≤ 1×: **not met**" } ?? "")
        table.add("peak RSS (mhz: the whole station, library, sound and fan-out included)",
                  mhz: String(format: "%.1f MiB", mhzPeak),
                  reference: lq.map { String(format: "%.1f MiB liquidsoap", $0.peak) } ?? "—",
                  ratio: lq.map { String(format: "%.2f×", mhzPeak / $0.peak) } ?? "—",
                  target: lq.map { mhzPeak <= $0.peak ? "≤ 1×: met" : "≤ 1×: **not met**" } ?? "")
        table.add("media playlist p50 / p99 under \(options.listeners) listeners (n=\(fanStats.latencies.samples.count), "
                  + "\(fanStats.segments) segments fetched, \(fanStats.failures) failures)",
                  mhz: "\(ms(fanStats.latencies.median)) / \(ms(fanStats.latencies.p99))", reference: "—", ratio: "—",
                  target: "p99 < 10 ms: \(fanStats.latencies.p99 < 10 ? "met" : "**not met**")")
        table.add("station CPU under the fan-out, beside the broadcast alone",
                  mhz: percent(loaded), reference: percent(alone),
                  ratio: String(format: "%.2f×", loaded / max(alone, 0.001)),
                  target: "< 1.5×: \(loaded < 1.5 * alone ? "met" : "**not met**")")
        table.add("two `mhz --live` players started 5 s apart: when each began the same song, p50 / max apart "
                  + "(\(step.count) songs heard by both)",
                  mhz: step.isEmpty ? "no song heard by both" : String(format: "%.2f s / %.2f s", step.median, step.max),
                  reference: "one segment: 2 s", ratio: step.isEmpty ? "—" : String(format: "%.2f×", step.max / 2),
                  target: "within one segment: \(!step.isEmpty && step.max <= 2 ? "met" : "**not met**")")
        try LiveSegue.measure(options, liquidsoap: liquidsoap, into: &table, progress: progress)
        print("")
        print(table.markdown)
        print("")
        print("load average at the end: \(Machine.loadAverage())")
    }

    /// How far apart in time two headless `mhz --live` players, the second started 5 s after
    /// the first, began each song both heard from its start (each one's first song, joined
    /// part way, left out): the seconds per song, sorted.
    private static func twoPlayers(_ options: Options, port: Int, channel: String,
                                   seconds: Double) throws -> (count: Int, median: Double, max: Double, isEmpty: Bool) {
        let arguments = ["--live", channel, "--server", "http://127.0.0.1:\(port)"]
        func player(_ name: String) throws -> HeadlessMhz {
            let root = options.work.appendingPathComponent("live-\(name)", isDirectory: true)
            try? FileManager.default.removeItem(at: root)
            return try HeadlessMhz(try MhzInstall(binary: options.mhz, root: root), extraArguments: arguments)
        }
        let first = try player("a")
        defer { first.quit() }
        Thread.sleep(forTimeInterval: 5)
        let second = try player("b")
        defer { second.quit() }
        Thread.sleep(forTimeInterval: seconds)
        func starts(_ mhz: HeadlessMhz) -> [String: ContinuousClock.Instant] {
            let playing = mhz.all.filter { $0.name == "playing" && $0.sid != nil }
            var seen: [String: ContinuousClock.Instant] = [:]
            for event in playing.dropFirst() where seen[event.sid!] == nil { seen[event.sid!] = event.at }
            return seen
        }
        let a = starts(first), b = starts(second)
        let gaps = a.compactMap { sid, at in b[sid].map { abs(BenchKit.seconds($0 - at)) } }.sorted()
        guard !gaps.isEmpty else { return (0, 0, 0, true) }
        return (gaps.count, gaps[gaps.count / 2], gaps.last!, false)
    }

    /// The first channel of the station's list that is broadcast (not `0`, not `-3`).
    static func publicChannel(port: Int) throws -> String {
        let body = try LoadClient(port: port).get("/j/app/radio/channels")
        guard let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let channels = json["channels"] as? [[String: Any]] else {
            throw BenchError.tool("the channel list is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))")
        }
        for entry in channels {
            let id = (entry["channel_id"] as? Int).map(String.init) ?? (entry["channel_id"] as? String) ?? ""
            if !id.isEmpty, id != "0", id != "-3" { return id }
        }
        throw BenchError.tool("the station lists no public channel")
    }

    /// The share of a core `pid` used over `seconds`, running `tick` every 2 s meanwhile.
    static func cpuOver(pid: Int32, seconds: Double, tick: () -> Void = {}) -> Double {
        let start = ProcSample.read(pid)?.cpuSeconds ?? 0
        let began = ContinuousClock.now
        while ContinuousClock.now - began < .milliseconds(Int(seconds * 1000)) {
            tick()
            Thread.sleep(forTimeInterval: min(2, seconds))
        }
        let elapsed = BenchKit.seconds(ContinuousClock.now - began)
        return ((ProcSample.read(pid)?.cpuSeconds ?? start) - start) / elapsed
    }

    /// Liquidsoap broadcasting `music` (shuffled) as the same three variants for `seconds`
    /// after 5 s of warm-up, its source `s` passed through `processing` first (a Liquidsoap
    /// expression over `s`, e.g. a crossfade): its share of a core and its peak RSS.
    static func liquidsoapRun(_ liquidsoap: String, music: URL, work: URL, seconds: Double,
                              processing: String = "s") throws -> (cpu: Double, peak: Double) {
        let folder = work.appendingPathComponent("liquidsoap", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        let out = folder.appendingPathComponent("hls", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        func variant(_ kbps: Int) -> String {
            "(\"aac_\(kbps)\", %ffmpeg(format=\"mpegts\", %audio(codec=\"aac\", b=\"\(kbps)k\", samplerate=44100, channels=2)))"
        }
        let script = """
            settings.init.allow_root.set(true)
            log.stdout.set(true)
            log.level.set(2)
            s = playlist(mode="randomize", reload_mode="never", "\(music.path)")
            s = mksafe(\(processing))
            output.file.hls(playlist="live.m3u8", segment_duration=2.0, segments=6, segments_overhead=5,
              "\(out.path)", [\(variant(64)), \(variant(128)), \(variant(192))], s)

            """
        let file = folder.appendingPathComponent("radio.liq")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: liquidsoap)
        process.arguments = [file.path]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        Thread.sleep(forTimeInterval: 5)
        guard process.isRunning else { throw BenchError.tool("liquidsoap stopped at once: run \(file.path) by hand") }
        let cpu = cpuOver(pid: process.processIdentifier, seconds: seconds)
        let peak = ProcSample.read(process.processIdentifier)?.peakRSSMiB ?? 0
        let made = (try? FileManager.default.contentsOfDirectory(atPath: out.path))?.filter { $0.hasSuffix(".ts") } ?? []
        guard !made.isEmpty else { throw BenchError.tool("liquidsoap made no segment in \(out.path)") }
        return (cpu, peak)
    }

    static func liquidsoapVersion(_ path: String?) -> String {
        guard let path else { return "" }
        return Machine.version(path, ["--version"])?.split(separator: "\n").first.map(String.init) ?? ""
    }

    static func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
    private static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
}
