/// When a song counts as listened to, as both services ask: a song longer than 30 seconds,
/// once it has played for half its length or for 4 minutes, whichever comes first
/// (Last.fm's scrobbling rules; ListenBrainz's "half the track or 4 minutes").
public enum ListenRule {
    /// Songs this long or shorter are never scrobbled.
    public static let shortest = 30.0
    /// No song needs more play than this to count.
    public static let longestWait = 240.0

    /// Seconds of play after which a song of `duration` seconds counts; nil when it never
    /// counts (30 seconds or shorter, or of unknown length).
    public static func threshold(duration: Double) -> Double? {
        guard duration.isFinite, duration > shortest else { return nil }
        return min(duration / 2, longestWait)
    }
}
