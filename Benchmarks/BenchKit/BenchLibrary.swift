import Foundation

/// The benchmark's music folder: `count` short tagged files in five formats, written by
/// ffmpeg (one encoded tone per format, copied into each album's files with their own tags
/// by one ffmpeg run per album), kept between runs in the work folder.
public enum BenchLibrary {
    /// The formats, one per album in turn, so every TagLib reader the station uses is timed.
    public static let formats = ["mp3", "ogg", "flac", "m4a", "opus"]
    /// Files per album folder.
    public static let tracksPerAlbum = 10

    /// Makes sure `folder` holds the library of `count` files.
    public static func ensure(_ folder: URL, count: Int) throws {
        let marker = folder.appendingPathComponent(".complete-\(count)")
        if FileManager.default.fileExists(atPath: marker.path) { return }
        try? FileManager.default.removeItem(at: folder)
        let tones = folder.appendingPathComponent(".tones", isDirectory: true)
        try FileManager.default.createDirectory(at: tones, withIntermediateDirectories: true)
        for format in formats {
            var args = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-ac", "2"]
            switch format {
            case "mp3": args += ["-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k"]
            case "ogg": args += ["-ar", "44100", "-c:a", "libvorbis"]
            case "opus": args += ["-ar", "48000", "-c:a", "libopus"]
            case "m4a": args += ["-ar", "44100", "-c:a", "aac"]
            default: args += ["-ar", "44100", "-c:a", "flac"]
            }
            try run(args + [tones.appendingPathComponent("tone.\(format)").path])
        }
        let albums = (count + tracksPerAlbum - 1) / tracksPerAlbum
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        for album in 0..<albums {
            queue.addOperation {
                let format = formats[album % formats.count]
                let artist = String(format: "Artist %03d", album / 3)
                let albumName = String(format: "Album %04d", album)
                let directory = folder.appendingPathComponent("\(artist)/\(albumName)", isDirectory: true)
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                var args = ["-nostdin", "-loglevel", "error", "-y", "-i", tones.appendingPathComponent("tone.\(format)").path]
                for track in 0..<min(tracksPerAlbum, count - album * tracksPerAlbum) {
                    let title = "Song \(album)-\(track)"
                    args += ["-map", "0:a", "-c", "copy", "-metadata", "title=\(title)", "-metadata", "artist=\(artist)",
                             "-metadata", "album=\(albumName)", "-metadata", "genre=Genre \(album % 12)",
                             "-metadata", "date=\(1960 + album % 60)",
                             directory.appendingPathComponent(String(format: "%02d \(title).\(format)", track)).path]
                }
                try? run(args)
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError.tool("ffmpeg failed") }
    }
}
