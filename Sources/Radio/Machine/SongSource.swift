import RadioAPI

/// Where the radio's songs come from.
public enum SongSource: Sendable, Equatable {
    /// The station: the channel's lists are asked of it.
    case station
    /// The offline channel, chosen: downloaded songs, whatever the station does.
    case downloads
    /// The station could not be reached with nothing left to play: downloaded songs play
    /// while the radio keeps asking the station for `channel`, which it goes back to as soon
    /// as the station answers.
    case fallback(channel: ChannelInfo)

    /// Whether lists come from the downloads.
    public var isOffline: Bool { self != .station }

    /// The offline channel: `mhz --channel offline`, `channel offline`.
    public static let offlineChannel = ChannelInfo(id: "offline", name: "Offline (downloads)")
}
