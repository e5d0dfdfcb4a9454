import Foundation
import Radio

/// The arguments of one `org.freedesktop.Notifications.Notify` call for a song
/// (https://specifications.freedesktop.org/notification-spec/latest/): a pure function of
/// the song, its cover and the notification it replaces.
struct SongNotification: Sendable, Equatable {
    /// The song's id, so a late cover can be told from a new song.
    var sid: String
    /// `summary`: the title.
    var summary: String
    /// `body`: the artist, and the album on a line of its own when there is one.
    var body: String
    /// The cover file, if any.
    var coverFile: URL?

    /// The notification of `track` with `coverFile` as its picture.
    init(track: Track, coverFile: URL?) {
        sid = track.sid
        summary = track.title
        body = [track.artist, track.album].filter { !$0.isEmpty }.joined(separator: "\n")
        self.coverFile = coverFile
    }

    /// `Notify`'s arguments (`susssasa{sv}i`), replacing notification `replacesID` (0: none).
    ///
    /// `app_icon` is the cover's path, as notification servers take it for a local file;
    /// the `image-path` hint is the spec's own form for the same picture, a `file://` URI,
    /// which servers prefer to `app_icon` for the notification's image. `expire_timeout` -1
    /// leaves how long it shows to the server.
    func arguments(replacing replacesID: UInt32) -> [BusValue] {
        var hints: [BusEntry] = []
        if let coverFile { hints.append(BusEntry("image-path", .string(coverFile.absoluteURL.absoluteString))) }
        return [.string("mhz"), .uint32(replacesID), .string(coverFile?.path ?? ""), .string(summary), .string(body),
                .strings([]), .dictionary(hints), .int32(-1)]
    }
}
