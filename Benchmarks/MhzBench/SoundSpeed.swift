import BenchKit
import CMalloc
import Foundation
import Logging
import MusicLibrary
import SoundFeatures
import StationStorage

/// The station's sound analysis beside decoding the same files with the ffmpeg command line
/// (`ffmpeg -threads 1 -i FILE -f null -`): one thread measuring the files in turn
/// (`SoundAnalyzer`, in process), the background analysis on every core over a fresh
/// station database (`BackgroundAnalysis`: scan cache, one commit per file), and the
/// memory the features of a large library take.
///
/// Speeds are in × real time: seconds of the tracks' length per second of wall time. A track
/// longer than ``SoundAnalyzer/excerptSeconds`` is measured over that much of its middle, so
/// the audio actually measured (``analysedSeconds``) is less than its length; both are given.
struct SoundSpeed {
    /// Median wall and CPU seconds of one pass over every file.
    var mhz: (seconds: Double, cpu: Double)
    var ffmpeg: (seconds: Double, cpu: Double)
    /// The files' total length, and the audio the analysis measured of it (seconds).
    var trackSeconds: Double
    var analysedSeconds: Double
    /// Median wall seconds of the background analysis of every file on `workers` threads.
    var background: Double
    var workers: Int

    /// Files measured, their length (seconds) and formats.
    static let fileCount = 8
    static let fileSeconds = 240

    /// Makes ``fileCount`` songs of ``fileSeconds`` in `folder` (kept between runs): a tone
    /// that changes pitch every two seconds over pink noise, with a stroke on every beat at
    /// a tempo of its own, as 44.1 kHz stereo MP3, FLAC and Ogg Vorbis.
    static func prepare(_ folder: URL, ffmpeg: String) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<fileCount).map { index in
            let format = ["mp3", "flac", "ogg"][index % 3]
            let file = folder.appendingPathComponent("song-\(index).\(format)")
            if FileManager.default.fileExists(atPath: file.path) { return file }
            let beat = 60.0 / Double(90 + 10 * index), pitch = 110 * (index + 2)
            let song = "aevalsrc='0.3*sin(2*PI*\(pitch)*(1+mod(floor(t/2)\\,4)/4)*t)"
                + "+0.4*sin(2*PI*60*t)*exp(-20*mod(t\\,\(beat)))':s=44100:d=\(fileSeconds)"
            var arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", song,
                             "-f", "lavfi", "-i", "anoisesrc=color=pink:sample_rate=44100:amplitude=0.05:d=\(fileSeconds)",
                             "-filter_complex", "amix=inputs=2:normalize=0", "-ac", "2"]
            switch format {
            case "mp3": arguments += ["-c:a", "libmp3lame", "-b:a", "192k"]
            case "ogg": arguments += ["-c:a", "libvorbis"]
            default: break
            }
            let made = try MeasuredRun.run(ffmpeg, arguments + [file.path], environment: ProcessInfo.processInfo.environment)
            guard made.status == 0 else { throw BenchError.tool("ffmpeg could not make \(file.lastPathComponent)") }
            return file
        }
    }

    /// Alternating passes of each, `runs` times; then `runs` background analyses of the
    /// folder, each over a new station database in `work`.
    static func measure(files: [URL], folder: URL, ffmpeg: String, work: URL, runs: Int) async throws -> SoundSpeed {
        var mhz: [(Double, Double)] = [], reference: [(Double, Double)] = []
        var analysed = 0.0
        for _ in 0..<runs {
            let cpuBefore = processCPU()
            let start = ContinuousClock.now
            analysed = 0
            for file in files { analysed += try SoundAnalyzer.analyze(file).seconds }
            mhz.append((seconds(ContinuousClock.now - start), processCPU() - cpuBefore))
            var wall = 0.0, cpu = 0.0
            for file in files {
                let run = try MeasuredRun.run(ffmpeg, ["-nostdin", "-v", "error", "-threads", "1", "-i", file.path, "-f", "null", "-"],
                                              environment: ProcessInfo.processInfo.environment)
                guard run.status == 0 else { throw BenchError.tool("ffmpeg exited \(run.status)") }
                wall += run.seconds
                cpu += run.cpuSeconds
            }
            reference.append((wall, cpu))
        }
        let workers = ProcessInfo.processInfo.activeProcessorCount
        var background: [Double] = []
        for run in 0..<runs {
            let data = work.appendingPathComponent("sound-data-\(run)", isDirectory: true)
            try? FileManager.default.removeItem(at: data)
            defer { try? FileManager.default.removeItem(at: data) }
            let database = try StationDatabase(directory: data)
            let result = try LibraryIndex(root: folder, database: database,
                                          covers: CoverStore(directory: data.appendingPathComponent("covers"))).update()
            let library = Library(tracks: result.tracks, root: folder, isDemo: false, pins: result.pins)
            let analysis = BackgroundAnalysis(records: SoundRecords(database: database), workers: workers,
                                              logger: Logger(label: "mhz.bench.sound"))
            let start = ContinuousClock.now
            analysis.schedule(library) { _ in }
            await analysis.idle()
            background.append(seconds(ContinuousClock.now - start))
            guard analysis.progress?.measured == files.count else {
                throw BenchError.tool("the background analysis measured \(analysis.progress?.measured ?? 0) of \(files.count) files")
            }
        }
        return SoundSpeed(mhz: (Stats(mhz.map(\.0)).median, Stats(mhz.map(\.1)).median),
                          ffmpeg: (Stats(reference.map(\.0)).median, Stats(reference.map(\.1)).median),
                          trackSeconds: Double(files.count * fileSeconds), analysedSeconds: analysed,
                          background: Stats(background).median, workers: workers)
    }

    /// Measures the sound analysis and returns its rows: the files are made in `work` and
    /// kept there; `progress` hears what is under way.
    static func rows(ffmpeg: String, work: URL, quick: Bool, progress: (String) -> Void) async -> ResultTable {
        var table = ResultTable()
        let folder = work.appendingPathComponent("sound-\(fileCount)x\(fileSeconds)s", isDirectory: true)
        let runs = quick ? 2 : 5
        progress("sound analysis: \(fileCount) songs of \(fileSeconds) s, \(runs) × one thread beside "
            + "ffmpeg -f null, then \(runs) × the background analysis on every core")
        do {
            let files = try prepare(folder, ffmpeg: ffmpeg)
            let speed = try await measure(files: files, folder: folder, ffmpeg: ffmpeg, work: work, runs: runs)
            let length = "\(fileCount) songs of \(fileSeconds) s (MP3, FLAC, Vorbis, 44.1 kHz stereo)"
            let measured = String(format: "%.0f s of the middle measured of each", speed.analysedSeconds / Double(fileCount))
            table.add("sound analysis, one thread, \(length); \(measured); median of \(runs) (× real time of the songs' length)",
                      mhz: String(format: "%.0f× (%.2f s)", speed.speed(speed.mhz.seconds), speed.mhz.seconds),
                      reference: String(format: "%.0f× (%.2f s) `ffmpeg -threads 1 -i FILE -f null -` of each",
                                        speed.speed(speed.ffmpeg.seconds), speed.ffmpeg.seconds),
                      ratio: times(speed.speed(speed.mhz.seconds) / speed.speed(speed.ffmpeg.seconds)),
                      target: "≥ 50× per core: \(verdict(speed.speed(speed.mhz.seconds) >= 50))")
            table.add("… CPU seconds of that pass (user + system); audio measured per CPU second",
                      mhz: String(format: "%.2f s; %.0f× real time", speed.mhz.cpu, speed.analysedSeconds / speed.mhz.cpu),
                      reference: String(format: "%.2f s; %.0f× real time", speed.ffmpeg.cpu, speed.trackSeconds / speed.ffmpeg.cpu),
                      ratio: times(speed.mhz.cpu / speed.ffmpeg.cpu))
            table.add("background analysis of those songs on \(speed.workers) threads (scan cache, a commit per song), median of \(runs)",
                      mhz: String(format: "%.0f× (%.2f s)", speed.speed(speed.background), speed.background),
                      reference: String(format: "%.0f× one thread (the row above)", speed.speed(speed.mhz.seconds)),
                      ratio: times(speed.mhz.seconds / speed.background))
        } catch {
            table.add("sound analysis", mhz: "\(error)", reference: "", ratio: "")
        }
        let tracks = 50_000
        let bytes = bytesPerTrack(tracks: tracks)
        table.add("sound features of \(tracks) tracks in memory (catalog by song id + SoundTable), bytes per track",
                  mhz: String(format: "%.0f B (%.1f MiB)", bytes, bytes * Double(tracks) / 1_048_576),
                  reference: "the station's 200 MiB", ratio: String(format: "%.1f %%", bytes * Double(tracks) / 1_048_576 / 2),
                  target: "well under 200 MiB: \(verdict(bytes * Double(tracks) < 20 * 1_048_576))")
        return table
    }

    /// Returns once the station database in `stationData` has the sound of every track of
    /// its scan cache measured (or known unreadable); throws after `timeout`.
    static func waitForAnalysis(of stationData: URL, timeout: Duration) throws {
        let records = SoundRecords(database: try StationDatabase(directory: stationData))
        let deadline = ContinuousClock.now + timeout
        while true {
            let known = try records.survey()
            if !known.isEmpty, !known.values.contains(where: { if case .pending = $0 { true } else { false } }) { return }
            guard ContinuousClock.now < deadline else {
                throw BenchError.tool("the demo library's sound was not measured within \(timeout)")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// × real time of the tracks' length for a wall time.
    func speed(_ seconds: Double) -> Double { trackSeconds / seconds }

    /// Bytes of the heap (glibc's `mallinfo2().uordblks`, "total allocated space") that the
    /// features of `tracks` tracks take as the station holds them: the analysis' catalog by
    /// song id, and the library's ``SoundTable`` built from it.
    static func bytesPerTrack(tracks: Int) -> Double {
        let sids = (0..<tracks).map { String(format: "%09d", 100_000_000 + $0) }
        let before = mallinfo2().uordblks
        var catalog = SoundCatalog()
        for (index, sid) in sids.enumerated() {
            catalog.set((0..<SoundFeature.count).map { Float(index &+ $0) }, for: sid)
        }
        let table = SoundTable(trackCount: tracks, weights: SoundFeature.weights) { catalog.features(for: sids[$0]) }
        let after = mallinfo2().uordblks
        withExtendedLifetime((catalog, table)) {}
        return (Double(after) - Double(before)) / Double(tracks)
    }

    /// User plus system CPU seconds of this process so far.
    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
