/// What the player reports.
public enum AudioPlayerEvent: Sendable, Equatable {
    /// The item is playing (first audio clocked).
    case started(AudioPlayerItemID, duration: Double?)
    /// The item's position, a few times a second.
    case progress(AudioPlayerItemID, position: Double)
    /// The item's duration became known or changed.
    case duration(AudioPlayerItemID, Double)
    /// The item's stream broke and the player is reloading it where it broke: attempt
    /// `attempt` of at most `of`. The item keeps its id through the reload.
    case recovering(AudioPlayerItemID, attempt: Int, of: Int)
    /// The reload plays: the item goes on.
    case recovered(AudioPlayerItemID)
    /// Playback paused.
    case paused
    /// Playback resumed.
    case resumed
    /// The volume changed.
    case volume(Int)
    /// The item ended.
    case finished(AudioPlayerItemID, AudioPlayerEndReason)
}

/// Why an item ended.
public enum AudioPlayerEndReason: Sendable, Equatable {
    /// It played to its end.
    case eof
    /// It was stopped or replaced on purpose.
    case stopped
    /// It failed (network, format, an expired or missing URL).
    case failed(PlayerFailure)
}
