// mhz-bench: the built mhz binary beside the mpv command line, and the station under load,
// in one table measured in one run. Not a test. Build both in release and run:
//
//   script/build-release mhz mhz-bench
//   .build/release/mhz-bench [--quick] [--mhz PATH] [--work DIR]
//   .build/release/mhz-bench soak [--minutes N] [--mhz PATH] [--work DIR]   (Soak.swift)
//   .build/release/mhz-bench taste [--quick] [--seed N] [--listener NAME…] …   (TasteCommand.swift)
//   .build/release/mhz-bench sound [--quick] [--work DIR]   (SoundSpeed.swift: those rows only)
//   .build/release/mhz-bench scale [--tracks 50000] [--clients 64] …   (ScaleCommand.swift)
//   .build/release/mhz-bench live [--seconds 30] [--listeners 200] …   (LiveCommand.swift)
//
// It installs nothing: a missing mpv, tmux or ffmpeg is named in the table instead of a
// number. Progress goes to stderr, the table to stdout.
import BenchKit
import Foundation
import TestSupport

signal(SIGPIPE, SIG_IGN)
let options: BenchOptions
do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "soak" {
        let soak = try Soak.Options(Array(arguments.dropFirst()), defaults: try BenchOptions([]))
        try await Soak.run(soak) { FileHandle.standardError.write(Data("mhz-bench: \($0)\n".utf8)) }
        exit(0)
    }
    // A subcommand's failure is one line on stderr and exit status 1.
    func subcommand(_ name: String, _ body: (_ progress: (String) -> Void) throws -> Void) -> Never {
        do {
            try body { FileHandle.standardError.write(Data("mhz-bench: \($0)\n".utf8)) }
        } catch {
            FileHandle.standardError.write(Data("mhz-bench \(name): \(error)\n".utf8))
            exit(1)
        }
        exit(0)
    }
    let rest = Array(arguments.dropFirst())
    switch arguments.first {
    case "taste":
        let taste = try TasteOptions(rest, defaults: try BenchOptions([]))
        subcommand("taste") { try TasteCommand.run(taste, progress: $0) }
    case "scale":
        let scale = try ScaleCommand.Options(rest, defaults: try BenchOptions([]))
        subcommand("scale") { try ScaleCommand.run(scale, progress: $0) }
    case "live":
        let live = try LiveCommand.Options(rest, defaults: try BenchOptions([]))
        subcommand("live") { try LiveCommand.run(live, progress: $0) }
    default:
        break
    }
    if arguments.first == "sound" {
        // Only the sound analysis' rows (SoundSpeed.swift): no mhz binary, mpv or tmux needed.
        let sound = try BenchOptions(Array(arguments.dropFirst()))
        guard let ffmpeg = Executable.find("ffmpeg") else {
            FileHandle.standardError.write(Data("mhz-bench: ffmpeg not found on PATH (Debian: apt-get install ffmpeg)\n".utf8))
            exit(2)
        }
        print("mhz-bench sound\(sound.quick ? " --quick" : "")")
        for line in Machine.describe(tools: ["ffmpeg": Machine.version(ffmpeg, ["-version"])]) { print(line) }
        try FileManager.default.createDirectory(at: sound.work, withIntermediateDirectories: true)
        let rows = await SoundSpeed.rows(ffmpeg: ffmpeg, work: sound.work, quick: sound.quick) {
            FileHandle.standardError.write(Data("mhz-bench: \($0)\n".utf8))
        }
        print("")
        print(rows.markdown)
        print("")
        print("load average at the end: \(Machine.loadAverage())")
        exit(0)
    }
    options = try BenchOptions(arguments)
} catch let error as BenchUsage {
    if error.help { print(error.message) } else { FileHandle.standardError.write(Data((error.message + "\n").utf8)) }
    exit(error.help ? 0 : 2)
}
do {
    try Executable.requireMhz(options.mhz)
} catch {
    FileHandle.standardError.write(Data("mhz-bench: \(error)\n".utf8))
    exit(2)
}

func progress(_ text: String) { FileHandle.standardError.write(Data("mhz-bench: \(text)\n".utf8)) }
func ms(_ value: Double) -> String { String(format: "%.0f ms", value) }
func ms2(_ value: Double) -> String { String(format: "%.2f ms", value) }
func times(_ value: Double) -> String { String(format: "%.2f×", value) }
func verdict(_ met: Bool) -> String { met ? "met" : "**not met**" }

let mpv = MPVCommandLine.find()
let tmux = TmuxDriver.executable
let ffmpeg = Executable.find("ffmpeg")
let missingMPV = "mpv not found"

print("mhz-bench\(options.quick ? " --quick" : ""): \(options.mhz)")
for line in Machine.describe(tools: [
    "mpv": Machine.version(mpv?.executable, ["--version"]), "tmux": Machine.version(tmux, ["-V"]),
    "ffmpeg": Machine.version(ffmpeg, ["-version"]), "swift": Machine.version(Executable.find("swift"), ["--version"]),
]) { print(line) }

try FileManager.default.createDirectory(at: options.work, withIntermediateDirectories: true)
let installRoot = options.work.appendingPathComponent("mhz", isDirectory: true)
try? FileManager.default.removeItem(at: installRoot)
let install = try MhzInstall(binary: options.mhz, root: installRoot)

// Warm-up, not measured: the first start synthesizes the demo library and scans it.
progress("warm-up: first mhz start synthesizes the demo library")
let warmUpStart = ContinuousClock.now
var firstRunPeakMiB: Double?
do {
    let first = try HeadlessMhz(install)
    _ = try first.wait(timeout: .seconds(180), what: "the first song playing") { $0.name == "playing" }
    // The embedded station measures the demo library's sound once, in the background: let
    // it finish here, so no row below times a start or a playback with it under way.
    try SoundSpeed.waitForAnalysis(of: install.dataDirectory.appendingPathComponent("station", isDirectory: true),
                                   timeout: .seconds(180))
    // The kernel's own peak of the whole first start (VmHWM), read before it quits.
    firstRunPeakMiB = ProcSample.read(first.pid)?.peakRSSMiB
    first.quit()
}
print(String(format: "warm-up (first start, demo library synthesized and heard; its peak RSS is in the table): %.1f s",
             seconds(ContinuousClock.now - warmUpStart)))

var reference: ReferenceStation?
if mpv != nil {
    let data = options.work.appendingPathComponent("reference-station", isDirectory: true)
    try? FileManager.default.removeItem(at: data)
    reference = try await ReferenceStation.start(library: install.demoLibrary, data: data)
}
let urls = reference?.urls ?? []
var table = ResultTable()

// MARK: Cold start
progress("cold start: \(options.coldStarts) × mhz, \(options.coldStarts) × mpv")
let coldMhz = try ColdStart.mhz(install, runs: options.coldStarts)
let coldMPV = try mpv.map { try ColdStart.mpv($0, urls: urls, runs: options.coldStarts) }
for (label, mhzStats, mpvStats, limit) in [
    ("position advancing (≥ 0.05 s)", coldMhz.advancing, coldMPV?.advancing, 1.5),
    ("first audio (mhz `playing`, mpv first time-pos)", coldMhz.firstAudio, coldMPV?.firstAudio, 1.2),
] {
    table.add("cold start → \(label), median of \(options.coldStarts) [p95]",
              mhz: "\(ms(mhzStats.median)) [\(ms(mhzStats.p95))]",
              reference: mpvStats.map { "\(ms($0.median)) [\(ms($0.p95))] `mpv FILE`" } ?? missingMPV,
              ratio: mpvStats.map { times(mhzStats.median / $0.median) } ?? missingMPV,
              target: mpvStats.map { "≤ \(limit)×: \(verdict(mhzStats.median <= limit * $0.median))" } ?? "≤ \(limit)×")
}

// MARK: Skips
progress("skips: \(options.skips) × mhz, \(options.skips) × mpv replace, \(options.skips) × mpv queued")
let skipMhz = try SkipLatency.mhz(install, skips: options.skips)
var skipMPV: (replace: Stats, queued: Stats)?
if let mpv {
    let session = try MPVIPCSession(mpv)
    skipMPV = try session.skips(urls: urls, count: options.skips)
    session.close()
}
let skipMhzText = "\(ms(skipMhz.median)) / \(ms(skipMhz.p95))"
table.add("skip → next song's first audio, p50 / p95 of \(options.skips)", mhz: skipMhzText,
          reference: skipMPV.map { "\(ms($0.replace.median)) / \(ms($0.replace.p95)) mpv `loadfile FILE replace`" } ?? missingMPV,
          ratio: skipMPV.map { "\(times(skipMhz.median / $0.replace.median)) / \(times(skipMhz.p95 / $0.replace.p95))" } ?? missingMPV,
          target: "p95 < 50 ms: \(verdict(skipMhz.p95 < 50))")
table.add("… the same skips beside a prefetched queued item", mhz: skipMhzText,
          reference: skipMPV.map { "\(ms($0.queued.median)) / \(ms($0.queued.p95)) mpv `loadfile FILE append` + `playlist-next`" } ?? missingMPV,
          ratio: skipMPV.map { "\(times(skipMhz.median / $0.queued.median)) / \(times(skipMhz.p95 / $0.queued.p95))" } ?? missingMPV)

// MARK: Skips through the control socket
progress("control socket: \(options.skips) × each of stdin skip, `mhz ctl skip`, skip on an open socket, taking turns")
let skipControl = try SkipLatency.control(install, skips: options.skips)
let stdinSkipText = "\(ms(skipControl.stdin.median)) / \(ms(skipControl.stdin.p95)) headless stdin `skip` (same process, taking turns)"
table.add("`mhz ctl skip` → next song's first audio, p50 / p95 of \(options.skips)",
          mhz: "\(ms(skipControl.ctl.median)) / \(ms(skipControl.ctl.p95))", reference: stdinSkipText,
          ratio: "\(times(skipControl.ctl.median / skipControl.stdin.median)) / \(times(skipControl.ctl.p95 / skipControl.stdin.p95))")
table.add("… of which the `mhz ctl` process, spawn → answer → exit, p50 / p95",
          mhz: "\(ms(skipControl.roundTrip.median)) / \(ms(skipControl.roundTrip.p95))",
          reference: "—", ratio: "—")
table.add("`skip` on an open control-socket connection → next song's first audio, p50 / p95",
          mhz: "\(ms(skipControl.socket.median)) / \(ms(skipControl.socket.p95))", reference: stdinSkipText,
          ratio: "\(times(skipControl.socket.median / skipControl.stdin.median)) / \(times(skipControl.socket.p95 / skipControl.stdin.p95))")

// MARK: CPU and memory while playing
let playSeconds = options.playbackSeconds
progress(String(format: "playback: %.0f s of mhz with the UI in tmux, %.0f s of mpv", playSeconds, playSeconds))
let costMhz = try tmux.map { _ in try PlaybackCost.mhz(install, seconds: playSeconds) }
let costMPV = try mpv.map { try PlaybackCost.mpv($0, urls: urls, seconds: playSeconds) }
// The same songs as MP3s over HTTP to the leanest mpv command line.
var costLean: PlaybackCost?
if let mpv {
    let files = try await StaticFileServer(root: install.demoLibrary)
    defer { files.stop() }
    let served = urls.compactMap { URL(string: $0)?.path }.map { path in
        files.url(String(path.dropFirst(install.demoLibrary.path.count + 1))).absoluteString
    }
    costLean = try PlaybackCost.leanMPV(mpv, urls: served, seconds: playSeconds)
}
let noTmux = "tmux not found"
table.add(String(format: "CPU over %.0f s of playback", playSeconds) + " (mhz: UI drawing in tmux \(PlaybackCost.width)×\(PlaybackCost.height))",
          mhz: costMhz.map { String(format: "%.2f s", $0.cpuSeconds) } ?? noTmux,
          reference: costMPV.map { String(format: "%.2f s `mpv FILE…`", $0.cpuSeconds) } ?? missingMPV,
          ratio: costMhz == nil ? noTmux : costMPV.map { times(costMhz!.cpuSeconds / $0.cpuSeconds) } ?? missingMPV,
          target: costMhz != nil && costMPV != nil
              ? "≤ 1.2×: \(verdict(costMhz!.cpuSeconds <= 1.2 * costMPV!.cpuSeconds))" : "≤ 1.2×")
table.add("peak RSS (VmHWM) at the end of that playback",
          mhz: costMhz.map { String(format: "%.1f MiB", $0.peakRSSMiB) } ?? noTmux,
          reference: costMPV.map { String(format: "%.1f MiB", $0.peakRSSMiB) } ?? missingMPV,
          ratio: costMhz == nil ? noTmux : costMPV.map { times(costMhz!.peakRSSMiB / $0.peakRSSMiB) } ?? missingMPV,
          target: costMhz != nil && costMPV != nil
              ? "≤ 1.3×: \(verdict(costMhz!.peakRSSMiB <= 1.3 * costMPV!.peakRSSMiB))" : "≤ 1.3×")
table.add("… the same peak RSS beside the leanest mpv: an MP3 over HTTP",
          mhz: costMhz.map { String(format: "%.1f MiB", $0.peakRSSMiB) } ?? noTmux,
          reference: costLean.map { String(format: "%.1f MiB `mpv --no-config --load-scripts=no --ytdl=no --ao=null --no-video URL…`", $0.peakRSSMiB) } ?? missingMPV,
          ratio: costMhz == nil ? noTmux : costLean.map { times(costMhz!.peakRSSMiB / $0.peakRSSMiB) } ?? missingMPV,
          target: costMhz != nil && costLean != nil
              ? "≤ 1.3×: \(verdict(costMhz!.peakRSSMiB <= 1.3 * costLean!.peakRSSMiB))" : "≤ 1.3×")
table.add("peak RSS of the first start (fresh data directory, headless: the demo library made, then heard while it plays)",
          mhz: firstRunPeakMiB.map { String(format: "%.1f MiB", $0) } ?? "not read",
          reference: costLean.map { String(format: "%.1f MiB the leanest mpv above", $0.peakRSSMiB) } ?? missingMPV,
          ratio: firstRunPeakMiB.flatMap { peak in costLean.map { times(peak / $0.peakRSSMiB) } } ?? missingMPV,
          target: firstRunPeakMiB.flatMap { peak in costLean.map { "≤ 1.3×: \(verdict(peak <= 1.3 * $0.peakRSSMiB))" } } ?? "≤ 1.3×")
await reference?.stop()

// MARK: Downloads
if let curl = Executable.find("curl") {
    let largeMiB = options.quick ? 50 : 200, songs = 20, songMiB = 4
    let files = try DownloadThroughput.prepare(options.work.appendingPathComponent("download-files", isDirectory: true),
                                               largeMiB: largeMiB, songs: songs, songMiB: songMiB)
    let server = try FaultyMediaServer(root: options.work.appendingPathComponent("download-files", isDirectory: true))
    server.delayEveryRequest(by: DownloadThroughput.requestDelay)
    let runs = options.quick ? 2 : 5
    progress("downloads: \(runs) × (one \(largeMiB) MiB file, \(songs) songs of \(songMiB) MiB), mhz download and curl -o")
    do {
        let large = try DownloadThroughput.measure(mhz: install, curl: curl, server: server, names: [files.large],
                                                   work: options.work, runs: runs)
        let batch = try DownloadThroughput.measure(mhz: install, curl: curl, server: server, names: files.songs,
                                                   work: options.work, runs: runs)
        server.stop()
        let delay = "local server, 20 ms before each answer"
        table.add("download throughput, one \(largeMiB) MiB file, median of \(runs) (\(delay))",
                  mhz: String(format: "%.0f MB/s", large.mhzRate),
                  reference: String(format: "%.0f MB/s `curl -o`", large.curlRate),
                  ratio: times(large.mhzRate / large.curlRate),
                  target: "≥ 0.95×: \(verdict(large.mhzRate >= 0.95 * large.curlRate))")
        table.add("download throughput, \(songs) songs of \(songMiB) MiB, median of \(runs) (\(delay); mhz 3 at once)",
                  mhz: String(format: "%.0f MB/s", batch.mhzRate),
                  reference: String(format: "%.0f MB/s `curl -o … -o …` (one after the other)", batch.curlRate),
                  ratio: times(batch.mhzRate / batch.curlRate),
                  target: "≥ 2×: \(verdict(batch.mhzRate >= 2 * batch.curlRate))")
        table.add("peak RSS downloading the \(largeMiB) MiB file, beside mhz's while playing (the row above)",
                  mhz: String(format: "%.1f MiB", large.mhzPeakRSSMiB),
                  reference: costMhz.map { String(format: "%.1f MiB mhz playing", $0.peakRSSMiB) } ?? noTmux,
                  ratio: costMhz.map { times(large.mhzPeakRSSMiB / $0.peakRSSMiB) } ?? noTmux,
                  target: costMhz.map { "≤ 1.2×: \(verdict(large.mhzPeakRSSMiB <= 1.2 * $0.peakRSSMiB))" } ?? "≤ 1.2×")
    } catch {
        // An mhz without `download` (an older build measured for comparison) has no row.
        server.stop()
        table.add("download throughput", mhz: "\(error)", reference: "", ratio: "")
    }
} else {
    print("curl not found on PATH: no download rows (Debian: apt-get install curl)")
}
if let ffmpeg {
    let segments = 60
    let folder = options.work.appendingPathComponent("hls-\(segments)", isDirectory: true)
    let ytdlp = Executable.find("yt-dlp")
    let runs = options.quick ? 2 : 5
    progress("HLS downloads: \(runs) × a \(segments)-segment stream, mhz download, ffmpeg -c copy\(ytdlp == nil ? "" : ", yt-dlp")")
    do {
        try HLSThroughput.prepare(folder, ffmpeg: ffmpeg, segments: segments)
        let server = try FaultyMediaServer(root: folder)
        server.delayEveryRequest(by: DownloadThroughput.requestDelay)
        defer { server.stop() }
        let hls = try HLSThroughput.measure(mhz: install, ffmpeg: ffmpeg, ytdlp: ytdlp, server: server,
                                            work: options.work, runs: runs)
        let yt = hls.ytdlp.map { String(format: "; yt-dlp %.2f MB/s", hls.rate($0.seconds)) } ?? ""
        table.add("HLS download, \(segments) segments (\(hls.bytes / 1000) kB), median of \(runs) (local server, 20 ms before each answer; mhz 4 segments at once)",
                  mhz: String(format: "%.2f MB/s", hls.rate(hls.mhz.seconds)),
                  reference: String(format: "%.2f MB/s `ffmpeg -i URL -c copy`", hls.rate(hls.ffmpeg.seconds)) + yt,
                  ratio: times(hls.ffmpeg.seconds / hls.mhz.seconds),
                  target: "≥ 2×: \(verdict(hls.ffmpeg.seconds >= 2 * hls.mhz.seconds))")
        table.add("CPU per MB of that HLS download (user + system)",
                  mhz: String(format: "%.0f ms/MB", hls.cpuPerMB(hls.mhz.cpu)),
                  reference: String(format: "%.0f ms/MB ffmpeg", hls.cpuPerMB(hls.ffmpeg.cpu)),
                  ratio: times(hls.mhz.cpu / hls.ffmpeg.cpu),
                  target: "≤ 1×: \(verdict(hls.mhz.cpu <= hls.ffmpeg.cpu))")
    } catch {
        table.add("HLS download", mhz: "\(error)", reference: "", ratio: "")
    }
}

// MARK: Transcoding
if let ffmpeg {
    let seconds = 180
    let input = options.work.appendingPathComponent("transcode-input-\(seconds)s.flac")
    progress("transcoding: \(seconds) s of 44.1 kHz stereo FLAC to MP3 128 kbit/s, in process beside the ffmpeg command line")
    do {
        try TranscodeSpeed.prepare(input, ffmpeg: ffmpeg, seconds: seconds)
        let runs = 5
        let speed = try TranscodeSpeed.measure(input: input, ffmpeg: ffmpeg, seconds: seconds, work: options.work, runs: runs)
        table.add("transcode \(seconds) s of FLAC to MP3 128 kbit/s, median of \(runs) (× real time)",
                  mhz: String(format: "%.0f× (%.2f s)", speed.speed(speed.mhz.seconds), speed.mhz.seconds),
                  reference: String(format: "%.0f× (%.2f s) ffmpeg -i FILE -b:a 128k", speed.speed(speed.ffmpeg.seconds),
                                    speed.ffmpeg.seconds),
                  ratio: times(speed.speed(speed.mhz.seconds) / speed.speed(speed.ffmpeg.seconds)))
        table.add("CPU seconds of that transcode (user + system)", mhz: String(format: "%.2f s", speed.mhz.cpu),
                  reference: String(format: "%.2f s", speed.ffmpeg.cpu), ratio: times(speed.mhz.cpu / speed.ffmpeg.cpu))
    } catch {
        table.add("transcode", mhz: "\(error)", reference: "", ratio: "")
    }
}

// MARK: Sound analysis
if let ffmpeg {
    table.append(await SoundSpeed.rows(ffmpeg: ffmpeg, work: options.work, quick: options.quick, progress: progress))
}

// MARK: Station
let music: URL
if ffmpeg != nil {
    music = options.work.appendingPathComponent("library-\(options.libraryFiles)", isDirectory: true)
    progress("station: \(options.libraryFiles)-file library (generated once with ffmpeg, kept in \(options.work.path))")
    try BenchLibrary.ensure(music, count: options.libraryFiles)
} else {
    music = install.demoLibrary
    print("ffmpeg not found: the station's scan runs over the demo library, too small for a rate")
}
progress("station: scans, the sound measured, then playlist load at \(options.concurrency.map(String.init).joined(separator: ", ")) clients")
let (scan, loads) = try await StationBenchmark(music: music, work: options.work)
    .run(levels: options.concurrency, requestsPerLevel: options.requestsPerLevel, soundMeasured: true)
for load in loads {
    let p = load.playlist, r = load.reference
    table.add("station playlist mix (n, s, r with lists, liked_songs; sound measured), p50 / p99 at \(load.clients) client\(load.clients == 1 ? "" : "s") (n=\(p.samples.count))",
              mhz: "\(ms2(p.median)) / \(ms2(p.p99))",
              reference: "\(ms2(r.median)) / \(ms2(r.p99)) channel list (constant JSON)",
              ratio: "\(times(p.median / r.median)) / \(times(p.p99 / r.p99))",
              target: load.clients == 64 ? "p99 < 10 ms: \(verdict(p.p99 < 10))" : "")
}
table.add("library first scan (\(scan.files) files, \(scan.firstRead) read)", mhz: String(format: "%.0f files/s", scan.firstRate),
          reference: String(format: "%.0f files/s TagLib only, one thread", scan.referenceRate),
          ratio: times(scan.firstRate / scan.referenceRate),
          target: "≥ 1.5×: \(verdict(scan.firstRate / scan.referenceRate >= 1.5))")
table.add("library rescan, nothing changed (median of 9)", mhz: String(format: "%.0f files/s", scan.rescanRate),
          reference: String(format: "%.0f files/s walk + stat(2)", scan.walkRate), ratio: times(scan.rescanRate / scan.walkRate))

print("")
print(table.markdown)
print("")
print("load average at the end: \(Machine.loadAverage()) (other work on the machine moves every number above)")
if let mpv {
    print("mpv command lines (base options: the CLI counterpart of mhz's player settings):")
    print("  cold start: \(mpv.commandLine(["--input-ipc-server=SOCKET", "--really-quiet", "FILE"])) (observe_property time-pos)")
    print("  skips:      \(mpv.commandLine(["--input-ipc-server=SOCKET", "--really-quiet", "--idle=yes"])) (loadfile … replace | append + playlist-next → playback-restart)")
    print("  CPU/RSS:    \(mpv.commandLine(["--input-ipc-server=SOCKET", "--really-quiet", "--loop-playlist=inf", "FILE…"])) (/proc/PID/stat, VmHWM)")
} else {
    print("mpv not found on PATH: the reference columns are empty (Debian: apt-get install mpv)")
}
if tmux == nil { print("tmux not found on PATH: no CPU/RSS with the UI (Debian: apt-get install tmux)") }
print("mhz: \(install.arguments(headless: true).joined(separator: " ")) (and without --headless in tmux), HOME and XDG folders under \(install.root.path)")
