import RadioAPI

/// What happened, for front ends that narrate rather than draw (headless JSON lines).
public enum RadioEvent: Sendable, Equatable {
    /// A song started playing on a channel.
    case playing(Track, channel: ChannelInfo)
    /// A song started to be heard on a live channel (`mhz --live`), `behind` seconds behind
    /// the live edge: at every song change of the broadcast and after every move within it.
    case livePlaying(Track, channel: ChannelInfo, behind: Double)
    /// On a live channel, the listener's vote to end the song heard (`skip`, or `ban` with a
    /// trash) was counted: how the vote stands.
    case voted(Track, type: ReportType, LiveTally)
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
    /// `live <id>`: the radio stopped, as at `quit`, for the listener to hear this channel's
    /// live broadcast instead (the composition root opens it: `mhz --live <id>`).
    case goingLive(ChannelInfo)
    /// `radio` (or a channel chosen) on a live channel entered from the radio: the live
    /// listening stopped for the radio to play again, on channel `id`, or on the channel it
    /// played before when nil (the composition root starts it, as mhz starts).
    case goingRadio(String?)
    /// The song's stream broke; the player is reconnecting (attempt `attempt` of `of`).
    case reconnecting(Track, attempt: Int, of: Int)
    /// The song plays again after a reconnection.
    case reconnected(Track)
    /// Where songs come from changed: the offline channel chosen or left, or downloads
    /// playing because the station is unreachable, or the station back.
    case source(SongSource)
    /// The answer to `status`: everything a front end would draw.
    case status(RadioSnapshot)
    /// The answer to `history`: songs started, newest first.
    case history([ListenEntry])
    /// The sleep timer was set to run out in this many seconds, or turned off (nil).
    case sleep(seconds: Double?)
    /// The sleep timer's fade lowered the volume to this.
    case fading(volume: Int)
    /// Something went wrong; playback goes on where it can.
    case error(RadioError)
}
