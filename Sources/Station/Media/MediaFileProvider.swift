import Foundation
import Hummingbird
import MusicLibrary

/// Serves library files to Hummingbird's `FileMiddleware` by song id, so the middleware's
/// Range, HEAD, ETag and If-Modified-Since handling applies to `/media/<sid>.<ext>` while
/// no part of a request path is ever used as a file system path: the only names accepted
/// are `<digits>.<ext>` of a track in the library, with that track's own extension, and
/// the current name of one of its transcodes (``transcode(named:)``).
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
    /// How songs are levelled: the gain a transcode is made at.
    let leveling: Leveling
    private let fileIO = FileIO()

    /// Creates a provider over the library being served, its transcode cache and how its
    /// songs are levelled.
    init(library: LiveLibrary, transcodes: TranscodeCache, leveling: Leveling) {
        self.library = library
        self.transcodes = transcodes
        self.leveling = leveling
    }

    /// What a transcode's name asks for, against the library served now.
    enum TranscodeName: Sendable, Equatable {
        /// The song's transcode in this format (``ServedFormat/mp3(kbps:gainTenths:)``) is
        /// made under this name now: serve it.
        case current(LibraryTrack, ServedFormat)
        /// The song's transcode at this bitrate has this other name now: the gain the name
        /// carries is not the one the song is levelled by (measured since, levelling turned
        /// off or on, or a gain made up).
        case renamed(String)
    }

    /// Maps `/<sid>.<ext>` (the path after `/media`) to the track's file and the current
    /// name of a transcode to its finished file, or `nil` for anything else: other shapes,
    /// unknown ids, the right id with another extension, a transcode not made yet (the
    /// media route streams that one while it is made) or a name no longer current (the
    /// media route redirects it).
    func getFileIdentifier(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        switch transcode(named: path.dropFirst()) {
        case .current(let track, let format): return transcodes.cachedFile(of: track, as: format)?.path
        case .renamed: return nil
        case nil: break
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

    /// What a transcode's file name (``ServedFormat/mediaFileName(of:)``) asks for, if it is
    /// one of a track of the library at a served bitrate: the transcode itself when the gain
    /// it names is the one the track is levelled by now, else the name it has now. A gain
    /// is only ever taken from the library, never from a name: a transcode at any gain a
    /// request made up would let anyone fill the cache.
    func transcode(named name: Substring) -> TranscodeName? {
        guard let asked = ServedFormat.transcode(named: name) else { return nil }
        // The track and its loudness from one snapshot: a table's positions are its library's.
        let (library, sound) = self.library.snapshotWithSound
        guard let position = library.position(of: String(asked.sid)) else { return nil }
        let track = library.tracks[position]
        let gain = leveling.gain(at: position, in: sound.loudness)
        let format = ServedFormat.mp3(kbps: asked.kbps, gainTenths: ServedFormat.tenths(of: gain) ?? 0)
        let current = format.mediaFileName(of: track)
        return name == current ? .current(track, format) : .renamed(current)
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
