// mhz-playback-bench: how fast and how light the Playback layer is, beside the mpv CLI on
// the same media over HTTP. Not a test; run a release build:
//   script/build-release mhz-playback-bench
//   .build/release/mhz-playback-bench [--runs 10] [--skips 50] [--seconds 10]
import BenchKit
import Foundation
import Playback
import TestSupport

/// Command-line settings.
struct Settings {
    /// Fresh players started for the first-audio figures (`--runs`).
    var runs = 10
    /// Skips timed, of each kind (`--skips`).
    var skips = 50
    /// Seconds of playback for the CPU and memory figures (`--seconds`).
    var seconds = 10.0

    /// Reads `--runs N --skips N --seconds S`; anything else is a usage error.
    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw BenchError.mpv("missing value for \(argument)") }
            switch argument {
            case "--runs": runs = Int(value) ?? runs
            case "--skips": skips = Int(value) ?? skips
            case "--seconds": seconds = Double(value) ?? seconds
            default: throw BenchError.mpv("unknown option \(argument) (use --runs N --skips N --seconds S)")
            }
        }
    }
}

if CommandLine.arguments.dropFirst().first == PlaybackChild.flag {
    try PlaybackChild.runAsChild(CommandLine.arguments)
}

let settings: Settings
do { settings = try Settings(CommandLine.arguments) } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}

let folder = try TemporaryDirectory(prefix: "mhz-bench")
let names = ["a.mp3", "b.ogg", "c.m4a"]
for name in names { try MediaFactory.tone(at: folder.path(name), seconds: 30) }
try MediaFactory.tone(at: folder.path("long.mp3"), seconds: settings.seconds + 20)
let server = try FaultyMediaServer(root: folder.url)
let urls = names.map { server.url($0) }
let longURL = server.url("long.mp3")

print("mhz-playback-bench: libmpv \(ProcessInfo.processInfo.operatingSystemVersionString), media: 30 s tones (mp3 128k, ogg, m4a) over HTTP on 127.0.0.1, ao=null")
let bench = PlayerBench(urls: urls, longURL: longURL)
let first = try bench.firstAudio(runs: settings.runs)
let skips = try bench.skips(settings.skips)
let usage = try PlaybackChild.measure(url: longURL, seconds: settings.seconds)

let mpv = MPVCommandLine.find()
var cliFirst: (restart: Stats, process: Stats)?
var cliSkips: (replace: Stats, queued: Stats)?
var cliUsage: (cpu: Double, startupCPU: Double, maxRSS: Double)?
if let mpv {
    cliFirst = try mpv.firstAudio(urls: urls, runs: settings.runs)
    let session = try MPVIPCSession(mpv)
    cliSkips = try session.skips(urls: urls, count: settings.skips)
    session.close()
    cliUsage = try mpv.playback(url: longURL, seconds: settings.seconds)
} else {
    print("mpv CLI not found on PATH: the comparison columns are empty (install it with: apt-get install -y mpv)")
}

/// mhz's figure over mpv's, or a dash without mpv's.
func ratio(_ ours: Double, _ theirs: Double?) -> String {
    guard let theirs, theirs > 0 else { return "–" }
    return String(format: "%.2f×", ours / theirs)
}
/// The ratios of two latency distributions at p50 and at p95: a tail can differ from the middle.
func ratios(_ ours: Stats, _ theirs: Stats?) -> String {
    "\(ratio(ours.median, theirs?.median)) / \(ratio(ours.p95, theirs?.p95))"
}
func ms(_ value: Double?) -> String { value.map { String(format: "%.1f ms", $0) } ?? "–" }

print("")
print("| measure | mhz PlayerController | mpv CLI | ratio (mhz / mpv), p50 / p95 where two |")
print("| --- | --- | --- | --- |")
print("| load → PLAYBACK_RESTART, p50 / p95 (fresh player, n=\(settings.runs)) | \(first.restart) | \(cliFirst.map { "\($0.restart)" } ?? "–") | \(ratios(first.restart, cliFirst?.restart)) |")
print("| load → time-pos advancing, p50 / p95 | \(first.advancing) | – (not observable from the CLI) | – |")
print("| whole mpv process: start, load, quit (--length=0.01), p50 | – | \(ms(cliFirst?.process.median)) | – |")
print("| skip with load/loadfile replace → PLAYBACK_RESTART, p50 / p95 (n=\(settings.skips)) | \(skips.replace) | \(cliSkips.map { "\($0.replace)" } ?? "–") | \(ratios(skips.replace, cliSkips?.replace)) |")
print("| skip to queued item (queueNext + advance / append + playlist-next) → PLAYBACK_RESTART, p50 / p95 | \(skips.queued) | \(cliSkips.map { "\($0.queued)" } ?? "–") | \(ratios(skips.queued, cliSkips?.queued)) |")
let cliPlaybackCPU = cliUsage.map { max(0, $0.cpu - $0.startupCPU) }
print(String(format: "| CPU over %.0f s of playback | %.3f s (delta while playing, fresh bench process) | %@ | %@ |",
             settings.seconds, usage.cpu,
             cliUsage.map { String(format: "%.3f s (%.3f s run − %.3f s start/load/quit)", max(0, $0.cpu - $0.startupCPU), $0.cpu, $0.startupCPU) } ?? "–",
             ratio(usage.cpu, cliPlaybackCPU)))
print(String(format: "| peak RSS while playing | %.1f MiB (VmHWM of a fresh bench process playing; %.1f MiB before the player) | %@ | %@ |", usage.peakRSS, usage.baseRSS,
             cliUsage.map { String(format: "%.1f MiB", $0.maxRSS) } ?? "–", ratio(usage.peakRSS, cliUsage?.maxRSS)))
print(String(format: "\nmedia advanced %.2f s in %.0f s of wall time (ao=null plays in real time)", usage.played, settings.seconds))
if mpv != nil {
    print("mpv command lines:")
    print("  first audio: \(MPVCommandLine(executable: "mpv").commandLine(["--msg-time", MPVCommandLine.firstAudioLogLevels, "--length=0.01", "URL"]))")
    print("  skips:       \(MPVCommandLine(executable: "mpv").commandLine(["--idle=yes", "--input-ipc-server=SOCKET", "--really-quiet"])) (JSON IPC: loadfile URL replace | loadfile URL append + playlist-next)")
    print("  CPU/RSS:     \(MPVCommandLine(executable: "mpv").commandLine(["--length=\(settings.seconds)", "URL"])) (CPU: wait4 rusage; RSS: VmHWM sampled from /proc)")
}
server.stop()
