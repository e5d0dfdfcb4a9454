import Foundation
import MusicLibrary
import Transcoder

/// The library scanner's reader of files TagLib cannot open (Matroska and WebM music
/// videos): their container's tags and the sound's length and bit rate through FFmpeg's
/// libavformat, the transcoder's door. `MusicLibrary` does not import the transcoder; it
/// declares the port (``MediaTagReader``) and the station, which imports both, fills it.
struct FFmpegTagReader: MediaTagReader {
    /// The file's tags as TagLib would give them (whole seconds, kbit/s, no cover), or `nil`
    /// when FFmpeg cannot open it or finds no sound in it.
    func metadata(of file: URL) -> TrackMetadata? {
        guard let description = try? MediaProbe.describe(file) else { return nil }
        return TrackMetadata(title: description.title, artist: description.artist, album: description.album,
                             genre: description.genre, year: description.year,
                             duration: Int(description.durationSeconds), bitrate: description.kbps, cover: nil)
    }
}
