/// The answer of a playlist request (`/j/app/radio/people`, `/j/mine/playlist`,
/// `/j/v2/playlist`), as ``ChannelList`` is that of the channel list: the envelope
/// (docs/PROTOCOL.md §4.1) with its status, songs and the flags that tell the client about
/// its session. (An HLS playlist is another thing: `HLSPlaylist`'s `Playlist`.)
public struct SongList: Sendable, Equatable, Codable {
    /// `0` means success; anything else is an error described by `err`.
    public var status: Int
    /// The error word when `status != 0` (`expired`, `wrong_version`, …).
    public var error: String?
    /// The songs, possibly empty (a new channel, an empty red-heart list).
    public var songs: [Song]
    /// The protocol version the server speaks (100 for the app API).
    public var versionMax: Int?
    /// Set when the request carried no (valid) credentials: the client is anonymous.
    public var loggedOut: Bool
    /// `"user_is_ananymous"` (sic) for anonymous requests to personal channels.
    public var warning: String?
    /// Present in web answers; meaning unknown, kept for fidelity.
    public var showQuickStart: Int?

    /// Creates a successful answer.
    public init(songs: [Song], versionMax: Int? = 100, loggedOut: Bool = false, warning: String? = nil,
                showQuickStart: Int? = nil) {
        self.status = 0
        self.error = nil
        self.songs = songs
        self.versionMax = versionMax
        self.loggedOut = loggedOut
        self.warning = warning
        self.showQuickStart = showQuickStart
    }

    /// Creates an error answer (`{"r":1,"err":…}`).
    public init(error: String) {
        self.status = 1
        self.error = error
        self.songs = []
        self.versionMax = nil
        self.loggedOut = false
        self.warning = nil
        self.showQuickStart = nil
    }

    /// Whether the anonymous warning is present, in either spelling (ampm/Douban-FM-sdk checks both).
    public var isAnonymous: Bool {
        warning == "user_is_ananymous" || warning == "user_is_anonymous"
    }

    enum CodingKeys: String, CodingKey {
        case status = "r", error = "err", songs = "song", versionMax = "version_max", loggedOut = "logout"
        case warning, showQuickStart = "is_show_quick_start"
    }

    /// Decodes an envelope; `r` may be a number, a string or a boolean (kfstorm/DoubanFM), `song` may be
    /// missing. Songs that cannot be played (no sid or url) are an error of the whole
    /// answer, so a broken server is noticed rather than silently thinned out.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.lenientInt(.status) ?? 0
        error = try c.lenientString(.error)
        if error == nil, status != 0 {
            // Web answers name their errors `err_msg` (HakurouKen/douban.fm-api); the app's word is `err`.
            error = try decoder.container(keyedBy: WebErrorKeys.self).lenientString(.message)
        }
        songs = try c.decodeIfPresent([Song].self, forKey: .songs) ?? []
        versionMax = try c.lenientInt(.versionMax)
        loggedOut = try c.lenientBool(.loggedOut) ?? false
        warning = try c.lenientString(.warning)
        showQuickStart = try c.lenientInt(.showQuickStart)
    }

    /// Read only, never written: the encoder keeps the app API's shape.
    private enum WebErrorKeys: String, CodingKey { case message = "err_msg" }

    /// Encodes the app API shape: `r`, then only the fields that are set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(versionMax, forKey: .versionMax)
        if loggedOut { try c.encode(1, forKey: .loggedOut) }
        try c.encodeIfPresent(warning, forKey: .warning)
        try c.encodeIfPresent(showQuickStart, forKey: .showQuickStart)
        if status == 0 { try c.encode(songs, forKey: .songs) }
    }
}

/// The answer of `/j/app/radio/channels`: `{"channels":[…]}`.
public struct ChannelList: Sendable, Equatable, Codable {
    /// The channels in the server's order.
    public var channels: [Channel]

    /// Creates a list.
    public init(channels: [Channel]) { self.channels = channels }
}
