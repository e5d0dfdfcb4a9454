import BenchKit
import Foundation
import TasteBench
import TestSupport

/// The taste benchmark's libraries on disk: the generated ones made with the ffmpeg
/// command line once into the work folder (a marker file says a library is complete), and
/// real music from a Debian package, whose truth is its tags as ffprobe reads them.
/// Nothing is installed: a missing tool or package is a reason, printed instead of a table.
enum TasteLibraries {
    /// The libraries by their command-line names.
    enum Name: String, CaseIterable {
        /// 480 tagged songs, 60 artists, 6 genres, the 1960s to the 2020s.
        case generated
        /// 200 songs whose tags say nothing, half calm and half bright.
        case sound
        /// The Battle for Wesnoth's soundtrack (Debian's wesnoth-1.16-music).
        case wesnoth
    }

    /// Where wesnoth-1.16-music puts its OGG files.
    static let wesnothFolder = "/usr/share/games/wesnoth/1.16/data/core/music"

    /// The library `name`, made first if it is a generated one not made yet.
    /// - Returns: the library, or why it cannot be had (the text for the report).
    static func load(_ name: Name, work: URL, progress: (String) -> Void) throws -> Result<TasteLibrary, TasteSkip> {
        switch name {
        case .generated, .sound:
            guard let ffmpeg = Executable.find("ffmpeg") else { return .failure(TasteSkip("ffmpeg not found on PATH")) }
            let plan = name == .generated ? LibraryPlan.generated() : LibraryPlan.sound()
            let folder = work.appendingPathComponent("taste-\(name.rawValue)", isDirectory: true)
            try make(plan, in: folder, ffmpeg: ffmpeg, progress: progress)
            return .success(TasteLibrary(name: name.rawValue, folder: folder.path, songs: plan.map(\.truth)))
        case .wesnoth:
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: wesnothFolder)) ?? [])
                .filter { $0.hasSuffix(".ogg") }.sorted()
            guard !files.isEmpty else {
                return .failure(TasteSkip("wesnoth-1.16-music not installed (no music in \(wesnothFolder)); "
                                          + "`apt-get install wesnoth-1.16-music` adds it"))
            }
            guard let ffprobe = Executable.find("ffprobe") else { return .failure(TasteSkip("ffprobe not found on PATH")) }
            progress("reading the tags of \(files.count) files in \(wesnothFolder) with ffprobe")
            var songs: [SongTruth] = []
            for file in files {
                let path = wesnothFolder + "/" + file
                songs.append(try tags(of: path, ffprobe: ffprobe, stem: String(file.dropLast(4))))
            }
            return .success(TasteLibrary(name: name.rawValue, folder: wesnothFolder, songs: songs,
                                         stems: files.map { String($0.dropLast(4)) }))
        }
    }

    /// Makes the files of `plan` in `folder` unless a marker says they were made: every
    /// distinct audio encoded once (MP3, mono), then copied into each file with its tags,
    /// eight files per ffmpeg run, two runs at a time.
    static func make(_ plan: [LibraryPlan.File], in folder: URL, ffmpeg: String, progress: (String) -> Void) throws {
        let marker = folder.appendingPathComponent(".complete-\(plan.count)-v1")
        if FileManager.default.fileExists(atPath: marker.path) { return }
        progress("making \(plan.count) files in \(folder.path) with ffmpeg (once; kept for later runs)")
        try? FileManager.default.removeItem(at: folder)
        let tones = folder.appendingPathComponent(".tones", isDirectory: true)
        try FileManager.default.createDirectory(at: tones, withIntermediateDirectories: true)
        let encode = ["-ac", "1", "-c:a", "libmp3lame", "-b:a", "64k"]
        func source(_ file: LibraryPlan.File) -> [String] {
            ["-f", "lavfi", "-i", "aevalsrc='\(file.audio)':s=\(LibraryPlan.sampleRate):d=\(file.seconds)"]
        }
        func tags(_ file: LibraryPlan.File) -> [String] {
            var tags = ["-metadata", "title=\(file.truth.title)", "-metadata", "artist=\(file.truth.artist)",
                        "-metadata", "album=\(file.truth.album)"]
            if file.tagsGenreAndDate {
                if let genre = file.truth.genre { tags += ["-metadata", "genre=\(genre)"] }
                if let year = file.truth.year { tags += ["-metadata", "date=\(year)"] }
            }
            return tags
        }
        for file in plan {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(file.path).deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
        }
        let groups = Dictionary(grouping: plan, by: \.audio).values.sorted { $0[0].path < $1[0].path }
        var jobs: [[String]] = []
        for (number, group) in groups.enumerated() {
            if group.count == 1 {
                jobs.append(source(group[0]) + encode + tags(group[0]) + [folder.appendingPathComponent(group[0].path).path])
                continue
            }
            let tone = tones.appendingPathComponent("\(number).mp3").path
            try run(ffmpeg, ["-nostdin", "-loglevel", "error", "-y"] + source(group[0]) + encode + [tone])
            for batch in stride(from: 0, to: group.count, by: 8).map({ group[$0..<min(group.count, $0 + 8)] }) {
                jobs.append(["-i", tone] + batch.flatMap { file in
                    ["-map", "0:a", "-c", "copy"] + tags(file) + [folder.appendingPathComponent(file.path).path]
                })
            }
        }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        let failures = Locked<[String]>([])
        for job in jobs {
            queue.addOperation {
                do { try run(ffmpeg, ["-nostdin", "-loglevel", "error", "-y"] + job) } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        if let failure = failures.value.first { throw BenchError.tool("ffmpeg could not make the library: \(failure)") }
        try? FileManager.default.removeItem(at: tones)
        _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
    }

    /// A file's tags (format and stream tags, any case), as its truth.
    static func tags(of path: String, ffprobe: String, stem: String) throws -> SongTruth {
        let output = try run(ffprobe, ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", path])
        let object = (try? JSONSerialization.jsonObject(with: output)) as? [String: Any] ?? [:]
        var tags: [String: String] = [:]
        let streams = object["streams"] as? [[String: Any]] ?? []
        for holder in streams + [object["format"] as? [String: Any] ?? [:]] {
            for (key, value) in holder["tags"] as? [String: String] ?? [:] where tags[key.lowercased()] == nil {
                tags[key.lowercased()] = value
            }
        }
        let year = tags["date"].flatMap { Int($0.prefix(4)) }
        return SongTruth(title: tags["title"] ?? stem, artist: tags["artist"] ?? "", album: tags["album"] ?? "",
                         genre: tags["genre"], year: year)
    }

    /// Runs a tool to its end; its standard output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError.tool("\(URL(fileURLWithPath: executable).lastPathComponent) failed (status \(process.terminationStatus))")
        }
        return data
    }
}

/// Why a library or a listener has no table: one line for the report.
struct TasteSkip: Error {
    /// The line.
    let reason: String

    /// A reason.
    init(_ reason: String) { self.reason = reason }
}
