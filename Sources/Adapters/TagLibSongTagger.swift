import Downloads
import Foundation
import MusicLibrary

/// The downloads' ``SongTagging`` port over the music library's TagLib door
/// (``TagLibFile``), so that TagLib has one caller with one threading rule.
public struct TagLibSongTagger: SongTagging {
    /// The tagger (it keeps nothing).
    public init() {}

    public func write(_ tags: SongTags, to path: String) -> Bool {
        TagLibFile.open(path) { file in
            guard file.update(title: tags.title, artist: tags.artist, album: tags.album, year: tags.year) else { return false }
            if let cover = tags.cover, !cover.data.isEmpty { file.setFrontCover(cover.data, mimeType: cover.mimeType) }
            return file.save()
        } ?? false
    }
}
