import Foundation
import MusicLibrary

/// Where the song and cover links of a playlist answer point.
///
/// Over HTTP they name the station's own routes under the root the client addressed, so a
/// player anywhere fetches them from the station. A caller in the same process on the same
/// machine (`mhz` and its embedded station) gets the files themselves instead: the player
/// opens them directly, with no server, socket or copy in between.
enum MediaLinks: Sendable {
    /// `<base>/media/<name>` and `<base>/cover/<name>`, e.g. under `http://127.0.0.1:7650`.
    case http(base: String)
    /// `file://` URLs of the track and of its cover in the station's cover store.
    case files(covers: CoverStore)

    /// The `url` of `track` served as `format` (always the file itself for ``files(covers:)``).
    func media(of track: LibraryTrack, format: ServedFormat) -> String {
        switch self {
        case .http(let base): return "\(base)\(StationRouter.mediaPrefix)/\(format.mediaFileName(of: track))"
        case .files: return track.file.absoluteString
        }
    }

    /// The `picture` of `track`: its cover, else the one the station draws for its album
    /// (``DrawnCover``), so a client always has an image to show.
    func picture(of track: LibraryTrack) -> String {
        let name = track.cover.isEmpty ? DrawnCover.fileName(albumID: track.aid) : track.cover
        switch self {
        case .http(let base): return "\(base)\(StationRouter.coverPrefix)/\(name)"
        case .files(let covers):
            if track.cover.isEmpty { return DrawnCover.file(for: track, in: covers)?.absoluteString ?? "" }
            return covers.file(named: name)?.absoluteString ?? ""
        }
    }
}
