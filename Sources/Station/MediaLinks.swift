import Foundation
import MusicLibrary

/// Where the song and cover links of a playlist answer point.
///
/// Over HTTP they name the station's own routes under the root the client addressed, so a
/// player anywhere fetches them from the station. A caller in the same process on the same
/// machine (`mhz` and its embedded station) gets the files themselves instead: the player
/// opens them directly, with no server, socket or copy in between.
enum MediaLinks: Sendable {
    /// `<base>/media/<sid>.<ext>` and `<base>/cover/<name>`, e.g. under `http://127.0.0.1:7650`.
    case http(base: String)
    /// `file://` URLs of the track and of its cover in the station's cover store.
    case files(covers: CoverStore)
}
