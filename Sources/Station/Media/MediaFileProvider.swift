import Foundation
import Hummingbird
import MusicLibrary

/// Serves library files to Hummingbird's `FileMiddleware` by song id, so the middleware's
/// Range, HEAD, ETag and If-Modified-Since handling applies to `/media/<sid>.<ext>` while
/// no part of a request path is ever used as a file system path: the only names accepted
/// are `<digits>.<ext>` of a track in the library, with that track's own extension.
struct MediaFileProvider: FileProvider {
    /// Size and modification date of a track's file, as the middleware needs them.
    struct FileAttributes: FileMiddlewareFileAttributes, Sendable {
        /// Always false: only tracks are served.
        var isFolder: Bool { false }
        /// File size in bytes.
        var size: Int
        /// Last modification (for `Last-Modified` and the ETag).
        var modificationDate: Date
    }

    /// The absolute path of the track's file, taken from the library, never from the request.
    typealias FileIdentifier = String

    /// The library served: the only source of file paths.
    let library: LiveLibrary
    /// The songs transcoded to MP3 so far.
    let transcodes: TranscodeCache
    private let fileIO = FileIO()

    /// Creates a provider over the library being served and its transcode cache.
    init(library: LiveLibrary, transcodes: TranscodeCache) {
        self.library = library
        self.transcodes = transcodes
    }

    /// Maps `/<sid>.<ext>` (the path after `/media`) to the track's file and
    /// `/<sid>-<kbps>k.mp3` to its finished transcode, or `nil` for anything else: other
    /// shapes, unknown ids, the right id with another extension, or a transcode not made
    /// yet (the media route streams that one while it is made).
    func getFileIdentifier(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        if let (track, kbps) = transcode(named: path.dropFirst()) {
            return transcodes.cachedFile(of: track, kbps: kbps)?.path
        }
        let name = path.dropFirst()
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let sid = name[..<dot]
        let fileExtension = name[name.index(after: dot)...]
        guard !sid.isEmpty, sid.allSatisfy({ $0.isASCII && $0.isNumber }),
              let track = library.snapshot.track(sid: String(sid)), track.fileExtension == fileExtension
        else { return nil }
        return track.file.path
    }

    /// The track and bitrate a transcode's file name (`<sid>-<kbps>k.mp3`) names, if it is
    /// one of a track of the library at a served bitrate.
    func transcode(named name: Substring) -> (LibraryTrack, Int)? {
        guard name.hasSuffix("k.mp3"), let dash = name.firstIndex(of: "-") else { return nil }
        let sid = name[..<dash]
        let rate = name[name.index(after: dash)...].dropLast(5)
        guard !sid.isEmpty, sid.allSatisfy({ $0.isASCII && $0.isNumber }), let kbps = Int(rate),
              ServedFormat.bitrates.contains(kbps), let track = library.snapshot.track(sid: String(sid))
        else { return nil }
        return (track, kbps)
    }

    /// Reads the file's size and date; `nil` (served as 404) when it has gone since the scan.
    func getAttributes(id: String) async throws -> FileAttributes? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: id),
              (attributes[.type] as? FileAttributeType) != .typeDirectory,
              let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        let date = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
        return FileAttributes(size: size, modificationDate: date)
    }

    /// The whole file, streamed in chunks by Hummingbird's file I/O.
    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        try await fileIO.loadFile(path: id, context: context)
    }

    /// The requested byte range (already clamped to the file by the middleware's headers).
    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await fileIO.loadFile(path: id, range: range, context: context)
    }

    /// Content-Types by extension, for the middleware: its built-in table lacks some audio
    /// types (flac, m4a) and names WAV `audio/wave`.
    static var mediaTypes: [String: MediaType] {
        LibraryTrack.mediaTypes.compactMapValues { MediaType(from: $0) }
    }
}
