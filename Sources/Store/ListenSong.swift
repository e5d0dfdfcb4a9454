import Foundation

/// What the history keeps of a song beyond its sid: the `song` column of a `listen` row,
/// stored as one JSON object (GRDB encodes a record's nested `Codable` value as JSON text).
///
/// A field added here is kept from then on without a new column or a migration: rows
/// written before it lack its key, and read back with the field's default.
public struct ListenSong: Codable, Sendable, Equatable {
    /// Title.
    public var title: String
    /// Artist.
    public var artist: String
    /// Album.
    public var album: String
    /// Release year, when known.
    public var year: String
    /// Where its audio was (what a download of it fetches); empty when unknown.
    public var url: String
    /// Cover art URL, or empty.
    public var picture: String
    /// SHA-256 of the audio file, when the station gave one.
    public var sha256: String?
    /// Its length in seconds as the station announced it (0 when unknown).
    public var length: Double

    /// Creates a song's fields.
    public init(title: String, artist: String, album: String = "", year: String = "", url: String = "",
                picture: String = "", sha256: String? = nil, length: Double = 0) {
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.url = url
        self.picture = picture
        self.sha256 = sha256
        self.length = length
    }

    /// Reads the fields a row has; a key it lacks (written before the field was kept) reads
    /// as the field's default, as ``init(title:artist:album:year:url:picture:sha256:length:)`` has it.
    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        self.init(title: try row.decodeIfPresent(String.self, forKey: .title) ?? "",
                  artist: try row.decodeIfPresent(String.self, forKey: .artist) ?? "")
        album = try row.decodeIfPresent(String.self, forKey: .album) ?? album
        year = try row.decodeIfPresent(String.self, forKey: .year) ?? year
        url = try row.decodeIfPresent(String.self, forKey: .url) ?? url
        picture = try row.decodeIfPresent(String.self, forKey: .picture) ?? picture
        sha256 = try row.decodeIfPresent(String.self, forKey: .sha256) ?? sha256
        length = try row.decodeIfPresent(Double.self, forKey: .length) ?? length
    }
}
