import Foundation

/// A song as the radio core and its front ends see it: what to show and what to play,
/// independent of the wire format it came in.
public struct Track: Sendable, Equatable {
    /// Song id (the `sid` reports are about).
    public var sid: String
    /// Title.
    public var title: String
    /// Artist(s).
    public var artist: String
    /// Album name.
    public var album: String
    /// Release year, when known.
    public var year: String
    /// Bitrate in kbit/s, when known.
    public var kbps: Int?
    /// Duration in seconds as the server announced it (0 when unknown).
    public var length: Double
    /// Whether the listener gave it a red heart.
    public var liked: Bool
    /// Where the audio is.
    public var url: String
    /// Cover art URL, or empty.
    public var picture: String
    /// SHA-256 of the audio file, when the station gave one.
    public var sha256: String?
    /// The channel a downloaded song was downloaded from (reports about it name that
    /// channel); nil for the station's own lists, which belong to the channel playing.
    public var channel: String?
    /// The song's secondary id (`ssid`), which the lyric call sends beside the sid; empty
    /// when the station gave none.
    public var ssid: String = ""
    /// Why the station chose it for the listener, in words, when the station says (mhz's
    /// station does: docs/PROTOCOL.md §4.2).
    public var reason: String?
    /// The gain (dB) that brings the audio at `url` to the station's level, as the station
    /// gave it (`Song.gain`); the player applies it to this song alone. nil: play it as it is
    /// (the station did not level it, or a downloaded file, a history replay).
    public var gain: Double?

    /// Creates a track.
    public init(sid: String, title: String, artist: String, album: String = "", year: String = "",
                kbps: Int? = nil, length: Double = 0, liked: Bool = false, url: String, picture: String = "",
                sha256: String? = nil, channel: String? = nil, reason: String? = nil, gain: Double? = nil) {
        self.sid = sid
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.kbps = kbps
        self.length = length
        self.liked = liked
        self.url = url
        self.picture = picture
        self.sha256 = sha256
        self.channel = channel
        self.reason = reason
        self.gain = gain
    }
}

/// A channel as front ends list it.
public struct ChannelInfo: Sendable, Equatable, Hashable {
    /// The id used in `channel=` and in `channel <id>`.
    public var id: String
    /// Display name.
    public var name: String
    /// Whether the station broadcasts it live (`mhz --live`, the channel list's `live`).
    public var live: Bool

    /// Creates a channel entry.
    public init(id: String, name: String, live: Bool = false) {
        self.id = id
        self.name = name
        self.live = live
    }
}

/// Everything a front end needs to draw the radio, as one value: the screen is a pure
/// function of it.
public struct RadioSnapshot: Sendable, Equatable {
    /// The channel being listened to, once known.
    public var channel: ChannelInfo?
    /// The song playing (or paused), if any.
    public var track: Track?
    /// Seconds played of `track`.
    public var position: Double
    /// The duration mpv measured, when known; better than `track.length`.
    public var duration: Double?
    /// Whether playback is paused.
    public var paused: Bool
    /// Volume 0–100.
    public var volume: Int
    /// Songs queued after the current one.
    public var queueLength: Int
    /// The channels the server offers, for the channel list.
    public var channels: [ChannelInfo]
    /// What went wrong most recently, shown on the status line until something else happens.
    public var problem: RadioError?
    /// The lyric line being sung, for the front ends to show; the machine never sets it
    /// (lyrics follow beside it), mhz's terminal front end fills it in. Nil: none.
    public var lyricLine: String? = nil
    /// The song's whole lyrics with the line being sung, for the terminal's lyrics view;
    /// filled in beside the machine as ``lyricLine`` is. Nil: not known (yet).
    public var lyrics: SongLyrics? = nil
    /// True while waiting for the server to answer a fetch with nothing to play meanwhile.
    public var loading: Bool
    /// Feedback reports waiting to reach the station (made while it was unreachable).
    public var pendingReports: Int
    /// When the radio next asks the station again after a failure, if it is waiting to.
    public var nextRetry: Date?
    /// Set while the player reconnects to the song's broken stream.
    public var reconnecting: Reconnection?
    /// Where the songs come from: the station, the offline channel, or downloads played
    /// while the station is unreachable.
    public var source: SongSource
    /// The downloads, for the downloads view and the status line.
    public var downloads: DownloadsOverview
    /// When the sleep timer runs out, if one is set (front ends show the time left).
    public var sleepEnds: Date?
    /// The history's newest songs, newest first (the history view lists them).
    public var history: [ListenEntry] = []
    /// Set while a live channel plays (`mhz --live`): how far behind its live edge the audio
    /// is. Nil for the radio's own lists of songs.
    public var live: LiveStatus? = nil

    /// Creates a snapshot; the defaults describe a radio that has not started.
    public init(channel: ChannelInfo? = nil, track: Track? = nil, position: Double = 0, duration: Double? = nil,
                paused: Bool = false, volume: Int = 100, queueLength: Int = 0, channels: [ChannelInfo] = [],
                problem: RadioError? = nil, loading: Bool = false, pendingReports: Int = 0,
                nextRetry: Date? = nil, reconnecting: Reconnection? = nil, source: SongSource = .station,
                downloads: DownloadsOverview = DownloadsOverview()) {
        self.channel = channel
        self.track = track
        self.position = position
        self.duration = duration
        self.paused = paused
        self.volume = volume
        self.queueLength = queueLength
        self.channels = channels
        self.problem = problem
        self.loading = loading
        self.pendingReports = pendingReports
        self.nextRetry = nextRetry
        self.reconnecting = reconnecting
        self.source = source
        self.downloads = downloads
    }

    /// The best known duration: mpv's measurement, else the server's announcement.
    public var effectiveDuration: Double? {
        if let duration, duration > 0 { return duration }
        if let length = track?.length, length > 0 { return length }
        return nil
    }
}
