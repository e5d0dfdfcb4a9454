import Recommender

extension PickReason {
    /// The song's `reason` field: one short sentence in the listener's terms, lower case
    /// first as a client shows it under the album ("you liked two songs by Nina Simone").
    var sentence: String {
        switch self {
        case .likedSong: return "you liked this song"
        case .likedArtist(let artist, let songs):
            return songs == 1 ? "you liked a song by \(artist)" : "you liked \(Self.number(songs)) songs by \(artist)"
        case .soundsLike(let title): return "sounds like \(title), which you liked"
        case .household: return "liked by others here"
        case .playedArtist(let artist): return "you listened to \(artist) before"
        case .new: return "something new for you"
        }
    }

    /// Two to ten in words, larger numbers in digits.
    private static func number(_ value: Int) -> String {
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        return value >= 0 && value < words.count ? words[value] : String(value)
    }
}
