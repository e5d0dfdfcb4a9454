import CFFmpeg
import Foundation

/// What a media file declares about its sound, as libavformat reads it without decoding:
/// the tags a library shows, the audio's length and bit rate. For the files TagLib cannot
/// read (TagLib 1.13 has no Matroska: `.mkv` and `.webm` music videos).
public struct MediaDescription: Sendable, Equatable {
    /// The `title` tag; empty when unset.
    public var title: String
    /// The `artist` tag (else `album_artist`); empty when unset.
    public var artist: String
    /// The `album` tag; empty when unset.
    public var album: String
    /// The `genre` tag; empty when unset.
    public var genre: String
    /// The year at the start of the `date` tag (else `date_released`, `year`); 0 when none.
    public var year: Int
    /// The audio's declared length in seconds (0 when the file declares none).
    public var durationSeconds: Double
    /// The audio stream's declared bit rate in kbit/s (0 when the file declares none, as
    /// Matroska often does not).
    public var kbps: Int

    /// Creates a description.
    public init(title: String, artist: String, album: String, genre: String, year: Int,
                durationSeconds: Double, kbps: Int) {
        self.title = title
        self.artist = artist
        self.album = album
        self.genre = genre
        self.year = year
        self.durationSeconds = durationSeconds
        self.kbps = kbps
    }
}

/// Reads ``MediaDescription``s through the same door as the transcoder: only FFmpeg's
/// `file` protocol, the best audio stream.
public enum MediaProbe {
    /// Describes the sound of the file at `url`.
    ///
    /// Blocking (it reads the file's headers and, for some containers, its first packets).
    /// Safe to call from several threads at once, each call with its own FFmpeg structures.
    ///
    /// - Throws: what opening a file for ``AudioTranscoder`` throws: `.librariesUnavailable`,
    ///   `.cannotOpen`, `.noAudioStream` (a video without sound), `.decoderUnavailable`.
    public static func describe(_ url: URL) throws(TranscodeError) -> MediaDescription {
        guard mhz_ffmpeg_available() != 0 else {
            throw .librariesUnavailable(reason: String(cString: mhz_ffmpeg_load_error()))
        }
        let decoder = try AudioDecoder(path: url.path)
        func tag(_ keys: String...) -> String {
            for key in keys {
                if let value = decoder.tags([key]).first?.value.trimmingCharacters(in: .whitespacesAndNewlines),
                   !value.isEmpty {
                    return value
                }
            }
            return ""
        }
        let date = tag("date", "date_released", "year")
        return MediaDescription(
            title: tag("title"), artist: tag("artist", "album_artist"), album: tag("album"), genre: tag("genre"),
            year: Int(date.prefix(4)) ?? 0, durationSeconds: decoder.declaredDuration ?? 0,
            kbps: Int(decoder.bitRate / 1000))
    }
}
