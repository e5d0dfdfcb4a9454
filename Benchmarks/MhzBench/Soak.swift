import BenchKit
import Foundation
import TestSupport

/// `mhz-bench soak [--minutes N]`: headless mhz for N minutes (default 20) against the fake
/// station behind a ``FaultProxy`` that takes the station down for 3 s every 13 s (dropping
/// connections, with a FIN and with an RST in turn), a `skip` every 2 s. What it measures: whether memory
/// and open descriptors stay flat (VmRSS and `/proc/PID/fd` after the first minute and at
/// the end), and whether every report reached the station exactly once, in the order mhz
/// made them (the station's record against mhz's own `skipped`/`ended`/… lines).
enum Soak {
    /// The soak's own options.
    struct Options {
        /// How long mhz runs.
        var minutes = 20.0
        /// The binary.
        var mhz: String
        /// Where the install (home, data) goes.
        var work: URL

        /// Parses the arguments after `soak`.
        init(_ arguments: [String], defaults: BenchOptions) throws(BenchUsage) {
            mhz = defaults.mhz
            work = defaults.work
            var iterator = arguments.makeIterator()
            while let argument = iterator.next() {
                guard ["--minutes", "--mhz", "--work"].contains(argument), let value = iterator.next() else {
                    throw BenchUsage("usage: mhz-bench soak [--minutes N] [--mhz PATH] [--work DIR]",
                                     help: argument == "-h" || argument == "--help")
                }
                switch argument {
                case "--minutes":
                    guard let minutes = Double(value), minutes >= 1.5 else { throw BenchUsage("--minutes needs a number ≥ 1.5") }
                    self.minutes = minutes
                case "--mhz": mhz = value
                default: work = URL(fileURLWithPath: value, isDirectory: true)
                }
            }
        }
    }

    /// What the process looked like at one moment.
    struct Sample {
        /// VmRSS, MiB.
        var rssMiB: Double
        /// Entries of `/proc/PID/fd`.
        var openFiles: Int

        /// Samples `pid`; nil once it is gone.
        static func read(_ pid: Int32) -> Sample? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let files = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            else { return nil }
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
            return Sample(rssMiB: kib / 1024, openFiles: files.count)
        }
    }

    /// The report each headless line stands for (`type sid`), nil for the others.
    static func report(_ event: MhzEvent) -> String? {
        let types = ["skipped": "s", "ended": "e", "liked": "r", "unliked": "u", "trashed": "b"]
        guard let type = types[event.name], let sid = event.sid else { return nil }
        return "\(type) \(sid)"
    }

    /// Runs the soak and prints its table.
    static func run(_ options: Options, progress: (String) -> Void) async throws {
        let root = options.work.appendingPathComponent("soak", isDirectory: true)
        try? FileManager.default.removeItem(at: root)
        let install = try MhzInstall(binary: options.mhz, root: root)
        let config = install.home.appendingPathComponent(".config/mhz/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "proxy = \"\"\ntimeout = 5\n".write(to: config, atomically: true, encoding: .utf8)
        let station = try await DoubanTestServer()
        defer { station.stop() }
        station.serveMedia(from: station.baseURL)
        let proxy = try FaultProxy(upstream: station.baseURL)
        defer { proxy.stop() }
        let mhz = try HeadlessMhz(install, extraArguments: ["--server", proxy.baseURL.absoluteString, "--channel", "0"])
        defer { mhz.quit() }
        _ = try mhz.wait(timeout: .seconds(60), what: "the first song playing") { $0.name == "playing" }
        let started = ContinuousClock.now
        let end = started + .seconds(options.minutes * 60)
        var afterMinute: Sample?
        var outages = 0
        progress(String(format: "soak: %.1f min, station down 3 s of every 13 s, a skip every 2 s", options.minutes))
        while ContinuousClock.now < end {
            // Cycle n: up for 10 s, then down for 3 s, odd outages with an RST.
            let elapsed = seconds(started.duration(to: .now))
            let cycle = Int(elapsed / 13)
            let down = elapsed - Double(cycle * 13) >= 10
            let wanted: FaultMode = down ? .drop(reset: cycle % 2 == 1) : .passThrough
            if proxy.mode != wanted {
                proxy.setMode(wanted)
                if down { outages += 1 }
            }
            mhz.send("skip")
            try await Task.sleep(for: .seconds(2))
            if afterMinute == nil, started.duration(to: .now) >= .seconds(60) { afterMinute = Sample.read(mhz.pid) }
        }
        proxy.setMode(.passThrough)
        // The outbox empties once the station stays up; then one more retry wait passes.
        var index = mhz.count
        var pending = -1
        let settle = ContinuousClock.now + .seconds(120)
        while pending != 0, ContinuousClock.now < settle {
            mhz.send("status")
            let status = try mhz.wait(after: index, what: "a status answer") { $0.name == "status" }
            index = mhz.count
            pending = status.pendingReports
            try await Task.sleep(for: .milliseconds(500))
        }
        try await Task.sleep(for: .seconds(4))
        let atEnd = Sample.read(mhz.pid)
        let made = mhz.all.compactMap(report)
        let delivered = station.calls(to: "/j/app/radio/people").compactMap { call -> String? in
            guard let type = call.parameter("type"), ["s", "e", "r", "u", "b"].contains(type) else { return nil }
            return "\(type) \(call.parameter("sid") ?? "")"
        }
        print(table(minutes: options.minutes, first: afterMinute, last: atEnd, made: made, delivered: delivered,
                    pending: pending, outages: outages, counts: proxy.counts, errors: mhz.all.filter { $0.name == "error" }.count))
    }

    /// The soak's Markdown table.
    static func table(minutes: Double, first: Sample?, last: Sample?, made: [String], delivered: [String], pending: Int,
                      outages: Int, counts: FaultCounts, errors: Int) -> String {
        func rss(_ sample: Sample?) -> String { sample.map { String(format: "%.1f MiB", $0.rssMiB) } ?? "gone" }
        func files(_ sample: Sample?) -> String { sample.map { "\($0.openFiles)" } ?? "gone" }
        let duplicates = delivered.count - Set(delivered).count
        let missing = made.filter { !delivered.contains($0) }.count
        let once = delivered == made
        return """
            | soak, \(String(format: "%.1f", minutes)) min | after 1 min | at the end |
            | --- | --- | --- |
            | VmRSS | \(rss(first)) | \(rss(last)) |
            | open fds (/proc/PID/fd) | \(files(first)) | \(files(last)) |
            | reports made by mhz / received by the station | | \(made.count) / \(delivered.count) |
            | every report once, in order | | \(once ? "yes" : "**no**: \(duplicates) repeated, \(missing) missing") |
            | reports still waiting at the end | | \(pending) |
            | outages / connections dropped / forwarded | | \(outages) / \(counts.dropped) / \(counts.forwarded) |
            | error lines mhz printed | | \(errors) |
            """
    }
}
