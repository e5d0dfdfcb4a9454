import Foundation
import StationStorage

/// Walks a music folder and reads every playable file's tags and audio properties with
/// TagLib, producing the tracks the station serves.
///
/// Files are found by extension (``LibraryTrack/songExtensions``: audio files and music
/// videos, any case), recursively; WAVE files' RIFF INFO tags are read as well (see
/// ``RIFFInfoTag``, TagLib's C API cannot), and files TagLib cannot open (Matroska, WebM)
/// through the ``MediaTagReader`` given, if any. Hidden files and folders (a leading `.`)
/// are skipped, which also keeps the demo library's half-written temporary files out. A file
/// neither can read, or in which TagLib finds neither a tag nor audio properties, is
/// skipped: it would most likely not play.
public struct LibraryScanner: Sendable {
    /// The folder being scanned.
    public let root: URL
    /// What reads the files TagLib cannot.
    let otherReader: (any MediaTagReader)?

    /// Creates a scanner for `root`; files TagLib cannot open are skipped.
    public init(root: URL) {
        self.init(root: root, otherReader: nil)
    }

    /// Creates a scanner for `root` that reads the files TagLib cannot open with `otherReader`.
    package init(root: URL, otherReader: (any MediaTagReader)?) {
        self.root = root
        self.otherReader = otherReader
    }

    /// Scans the folder.
    ///
    /// Blocking: TagLib reads each file, one at a time under TagLib's process-wide lock.
    /// Call it off the cooperative thread pool for large libraries.
    ///
    /// - Returns: the tracks sorted by relative path; empty when the folder is missing or
    ///   holds no playable file.
    /// - Throws: ``LibraryError/folderUnreadable(path:reason:)`` when the path names a
    ///   file rather than a folder, or a folder that cannot be listed. Unreadable subfolders
    ///   are skipped, not fatal.
    public func scan() throws(LibraryError) -> [LibraryTrack] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else { return [] }
        // A file where a folder was expected is a mistake to report, not an empty library.
        guard isDirectory.boolValue else { throw .folderUnreadable(path: root.path, reason: "not a folder") }
        let paths = try playableRelativePaths()
        let songIDs = TrackIdentity.songIDs(for: paths)
        return paths.compactMap { path in
            guard let sid = songIDs[path] else { return nil }
            return read(relativePath: path, sid: sid)
        }
    }

    /// Lists the playable files below the root as `/`-separated relative paths, sorted.
    package func playableRelativePaths() throws(LibraryError) -> [String] {
        try playableFiles().map(\.relativePath)
    }

    /// Lists the playable files below the root with their size and modification time (of
    /// the file a symbolic link leads to), sorted by relative path. A rescan compares these
    /// with its cache to find the files it need not read again.
    package func playableFiles() throws(LibraryError) -> [FileStamp] {
        let manager = FileManager.default
        do {
            // Listing the root first tells "exists but unreadable" apart from "empty": the
            // walk below skips folders it cannot open.
            _ = try manager.contentsOfDirectory(atPath: root.path)
        } catch {
            throw .folderUnreadable(path: root.path, reason: StorageError.reason(of: error))
        }
        // Walked with opendir(3)/readdir(3) rather than FileManager's enumerator, which
        // builds a URL and a normalized file-system representation for every entry: on a
        // first scan that was half the station's own work beside TagLib's. Names come back
        // as the directory holds them, the same strings the enumerator gave. A root that is
        // a symbolic link (a `~/Music` linked to another disk) is walked where it leads;
        // links to folders below it are not followed, as the enumerator did not.
        let walked = root.resolvingSymlinksInPath().path
        let playable = LibraryTrack.songExtensions
        var found: [FileStamp] = []
        var folders: [String] = [""]
        while let folder = folders.popLast() {
            let path = folder.isEmpty ? walked : walked + "/" + folder
            guard let directory = opendir(path) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                // Hidden files and folders (and `.`, `..`) are never music.
                if name.hasPrefix(".") { continue }
                let relative = folder.isEmpty ? name : folder + "/" + name
                let type = entry.pointee.d_type
                // A file system that does not tell the type leaves it to lstat(2).
                if type == UInt8(DT_DIR) || (type == UInt8(DT_UNKNOWN) && Self.isFolder(path + "/" + name)) {
                    folders.append(relative)
                    continue
                }
                guard let dot = name.lastIndex(of: "."), playable.contains(name[name.index(after: dot)...].lowercased())
                else { continue }
                // stat(2) follows symbolic links: a link counts when it leads to a regular
                // file (and a folder named like a song does not).
                var info = stat()
                guard stat(path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                found.append(FileStamp(relativePath: relative, size: Int64(info.st_size),
                                       modified: Self.nanoseconds(info.st_mtim)))
            }
        }
        return found.sorted { $0.relativePath < $1.relativePath }
    }

    /// A file's time in nanoseconds since 1970, held at the ends of `Int64` beyond them: a
    /// file dated after 2262 (`touch -d 2300-01-01`, which ext4 keeps) would overflow it, and
    /// a trapping multiplication would take the station down with every scan. The stamp is
    /// only compared with the next scan's; a held one still changes with the file's size.
    static func nanoseconds(_ time: timespec) -> Int64 {
        let (scaled, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return time.tv_sec < 0 ? .min : .max }
        let (sum, carried) = scaled.addingReportingOverflow(Int64(time.tv_nsec))
        return carried ? (time.tv_nsec < 0 ? .min : .max) : sum
    }

    /// Whether `path` is a folder itself (not a link to one).
    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads one file's metadata, filling what the tags leave empty from its path; no cover.
    package func read(relativePath: String, sid: String) -> LibraryTrack? {
        readMetadata(relativePath: relativePath, withCover: false).map {
            track(relativePath: relativePath, sid: sid, metadata: $0, cover: "")
        }
    }

    /// Reads one file's tags, audio properties and (when asked) embedded cover with TagLib,
    /// else (no cover) with the other reader.
    ///
    /// - Returns: `nil` when neither can open the file or finds nothing valid in it.
    package func readMetadata(relativePath: String, withCover: Bool) -> TrackMetadata? {
        let file = root.appendingPathComponent(relativePath)
        let read = TagLibFile.open(file.path) { file in
            TrackMetadata(title: file.title, artist: file.artist, album: file.album, genre: file.genre,
                          year: file.year, duration: file.durationSeconds, bitrate: file.bitrate,
                          cover: withCover ? file.frontCover : nil)
        }
        guard var tags = read ?? otherReader?.metadata(of: file) else { return nil }
        // TagLib's C API sees only a WAVE file's ID3v2 tag; fill its gaps from INFO.
        if PathNames.fileExtension(of: relativePath).lowercased() == "wav",
           [tags.title, tags.artist, tags.album, tags.genre].contains(""),
           let info = RIFFInfoTag(path: file.path) {
            if tags.title.isEmpty { tags.title = info.title }
            if tags.artist.isEmpty { tags.artist = info.artist }
            if tags.album.isEmpty { tags.album = info.album }
            if tags.genre.isEmpty { tags.genre = info.genre }
            if tags.year == 0 { tags.year = info.year }
        }
        return tags
    }

    /// Builds the served track from a file's metadata, names from the path where the tags
    /// are empty.
    package func track(relativePath: String, sid: String, metadata tags: TrackMetadata, cover: String) -> LibraryTrack {
        let names = PathNames(relativePath: relativePath)
        let album = tags.album.isEmpty ? names.album : tags.album
        return LibraryTrack(
            sid: sid,
            ssid: TrackIdentity.ssid(for: relativePath),
            aid: TrackIdentity.albumID(album: album, folder: names.folder),
            relativePath: relativePath,
            file: root.appendingPathComponent(relativePath),
            fileExtension: PathNames.fileExtension(of: relativePath).lowercased(),
            title: tags.title.isEmpty ? names.title : tags.title,
            artist: tags.artist.isEmpty ? names.artist : tags.artist,
            album: album,
            genre: tags.genre,
            year: tags.year,
            durationSeconds: tags.duration,
            bitrate: tags.bitrate,
            cover: cover)
    }
}
