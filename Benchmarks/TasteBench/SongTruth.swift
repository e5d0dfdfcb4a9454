/// What a song of a benchmark library really is: the facts a simulated listener judges it
/// by. For generated libraries they are what the generator wrote into the files; for real
/// music, the file's tags as ffprobe reads them. The station never sees this value: it
/// reads the files' tags (and, where it can, their sound) on its own.
package struct SongTruth: Sendable, Hashable {
    /// The title tag (or, untagged, the file name without its extension).
    package var title: String
    /// The artist tag.
    package var artist: String
    /// The album tag.
    package var album: String
    /// The genre tag, when there is one.
    package var genre: String?
    /// The year of the date tag, when there is one.
    package var year: Int?
    /// What the song sounds like, for the libraries made to tell sounds apart.
    package var sound: SoundClass?

    /// A song.
    package init(title: String, artist: String, album: String, genre: String? = nil, year: Int? = nil,
                 sound: SoundClass? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.genre = genre
        self.year = year
        self.sound = sound
    }
}

/// The two kinds of sound of the "sound" library: what a listener who cannot read the
/// tags (they say nothing) can still tell apart by ear.
package enum SoundClass: String, Sendable, Hashable, CaseIterable {
    /// Soft low sines that change slowly: quiet, dark, few onsets.
    case calm
    /// Noise, high harmonics and fast clicks: loud, bright, many onsets.
    case bright
}
