/// What happened, for front ends that narrate rather than draw (headless JSON lines).
public enum RadioEvent: Sendable, Equatable {
    /// A song started playing on a channel.
    case playing(Track, channel: ChannelInfo)
    /// Playback paused.
    case paused(Track?)
    /// Playback resumed.
    case resumed(Track?)
    /// A song played to its end.
    case ended(Track)
    /// The user skipped a song.
    case skipped(Track)
    /// The user liked a song.
    case liked(Track)
    /// The user took back a like.
    case unliked(Track)
    /// The user trashed a song.
    case trashed(Track)
    /// The channel changed (or was chosen at start).
    case channel(ChannelInfo)
    /// The answer to `status`.
    case status(RadioStatus)
    /// Something went wrong; playback goes on where it can.
    case error(RadioError)
}

/// The answer to `status`.
public struct RadioStatus: Sendable, Equatable {
    /// The channel.
    public var channel: ChannelInfo?
    /// The song, if one is playing or paused.
    public var track: Track?
    /// Seconds played.
    public var position: Double
    /// Duration, when known.
    public var duration: Double?
    /// Whether paused.
    public var paused: Bool
    /// Volume 0–100.
    public var volume: Int
    /// Songs queued after the current one.
    public var queueLength: Int

    /// Creates a status.
    public init(channel: ChannelInfo?, track: Track?, position: Double, duration: Double?, paused: Bool,
                volume: Int, queueLength: Int) {
        self.channel = channel
        self.track = track
        self.position = position
        self.duration = duration
        self.paused = paused
        self.volume = volume
        self.queueLength = queueLength
    }
}
