import BenchKit
import Foundation
import TestSupport

/// CPU seconds and peak RSS over a stretch of playback, read from `/proc` from the moment
/// first audio is known to be playing: mhz with its terminal UI drawing in a tmux pane
/// (embedded station included, since it runs in mhz's process), and `mpv` playing the same
/// files.
struct PlaybackCost {
    /// CPU (user + system, all threads) spent over the stretch.
    var cpuSeconds: Double
    /// Peak RSS of the process up to the end of the stretch (`VmHWM`).
    var peakRSSMiB: Double

    /// The pane size the UI draws in (bigger than the README's 80×16, so there is more to draw).
    static let width = 120, height = 40

    /// mhz in tmux for `seconds` after its first song started, then quit with `q`.
    static func mhz(_ install: MhzInstall, seconds: Double) throws -> PlaybackCost {
        install.forgetProgress()
        let logStart = (try? FileManager.default.attributesOfItem(atPath: install.logFile.path)[.size] as? Int) ?? 0
        let variables = install.environment.filter { $0.key != "TERM" }  // tmux sets the pane's own
            .sorted { $0.key < $1.key }.map { quote("\($0.key)=\($0.value)") }
        let command = (["exec", "env"] + variables + [quote(install.binary)]
            + install.arguments(headless: false).map(quote)).joined(separator: " ")
        let tmux = try TmuxDriver(command: command, columns: width, rows: height)
        let pid = try tmux.panePID()
        try waitForPlaying(log: install.logFile, after: logStart, pid: pid)
        let cost = try measure(pid: pid, seconds: seconds, what: "mhz")
        // The number is only worth having if the UI was really on the screen.
        let screen = try tmux.capture()
        guard screen.contains(where: { $0.contains("vol ") }) else {
            throw BenchError.tool("mhz in tmux drew no now-playing screen:\n" + screen.joined(separator: "\n"))
        }
        try tmux.send("q")
        let deadline = ContinuousClock.now + .seconds(10)
        while try !tmux.paneIsDead(), ContinuousClock.now < deadline { usleep(20_000) }
        return cost
    }

    /// `mpv` over `urls` (looping) for `seconds` after its position first advanced.
    static func mpv(_ mpv: MPVCommandLine, urls: [String], seconds: Double) throws -> PlaybackCost {
        let session = try MPVIPCSession(mpv, arguments: ["--loop-playlist=inf"] + urls)
        defer { session.close() }
        _ = try session.waitForPosition(atLeast: ColdStart.threshold, after: session.observePosition())
        return try measure(pid: session.pid, seconds: seconds, what: "mpv")
    }

    /// `mpv` with only ``MPVCommandLine/lean`` options over `urls` (MP3s over HTTP, looping)
    /// for `seconds` after its position first advanced: the leanest mpv a listener runs.
    static func leanMPV(_ mpv: MPVCommandLine, urls: [String], seconds: Double) throws -> PlaybackCost {
        let session = try MPVIPCSession(mpv, arguments: ["--loop-playlist=inf"] + urls, base: MPVCommandLine.lean)
        defer { session.close() }
        _ = try session.waitForPosition(atLeast: ColdStart.threshold, after: session.observePosition())
        return try measure(pid: session.pid, seconds: seconds, what: "mpv (lean)")
    }

    /// The CPU and peak RSS of `pid` over `seconds` from now.
    private static func measure(pid: Int32, seconds: Double, what: String) throws -> PlaybackCost {
        guard let before = ProcSample.read(pid) else { throw BenchError.tool("\(what) exited before measuring") }
        usleep(useconds_t(seconds * 1_000_000))
        guard let after = ProcSample.read(pid) else { throw BenchError.tool("\(what) exited while measured") }
        return PlaybackCost(cpuSeconds: after.cpuSeconds - before.cpuSeconds, peakRSSMiB: after.peakRSSMiB)
    }

    /// Quotes `word` for sh.
    private static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Waits until mhz's log narrates a `playing` event after byte `offset`: with the UI on
    /// the terminal, the log is where mhz says what happens.
    private static func waitForPlaying(log: URL, after offset: Int, pid: Int32) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: log.path), data.count > offset,
               String(decoding: data[offset...], as: UTF8.self).contains("\"event\":\"playing\"") { return }
            if ProcSample.read(pid) == nil { throw BenchError.tool("mhz in tmux exited before playing") }
            usleep(20_000)
        }
        throw BenchError.timeout("mhz in tmux: no playing event in \(log.path)")
    }
}
