import Radio

/// Snapshots shared by the rendering tests: one ASCII, one Chinese, one Japanese with
/// emoji, one Korean, each exercising a different corner (liked / not, paused, unknown
/// duration, a problem on the status line, reports waiting).
enum Fixtures {
    static let channels = [
        ChannelInfo(id: "1", name: "华语MHz"),
        ChannelInfo(id: "2", name: "欧美MHz"),
        ChannelInfo(id: "7", name: "Jazz FM"),
        ChannelInfo(id: "-3", name: "红心兆赫"),
        ChannelInfo(id: "61", name: "日本語チャンネル"),
        ChannelInfo(id: "153", name: "Kids"),
    ]

    /// Playing, liked, ASCII only; duration from the server's `length`.
    static let ascii = RadioSnapshot(
        channel: ChannelInfo(id: "7", name: "Jazz FM"),
        track: Track(sid: "1001", title: "So What", artist: "Miles Davis", album: "Kind of Blue",
                     year: "1959", kbps: 192, length: 562, liked: true, url: "http://127.0.0.1/1.mp3"),
        position: 65, volume: 80, queueLength: 3, channels: channels)

    /// Paused, not liked, CJK title/artist/album, mpv's duration, station unreachable.
    static let chinese = RadioSnapshot(
        channel: ChannelInfo(id: "1", name: "华语MHz"),
        track: Track(sid: "2002", title: "晴天", artist: "周杰伦", album: "叶惠美", year: "2003",
                     kbps: 320, length: 270, liked: false, url: "http://127.0.0.1/2.mp3"),
        position: 65, duration: 269.5, paused: true, volume: 55, queueLength: 2, channels: channels,
        problem: .service(.unreachable("connection refused")))

    /// Playing, liked, Japanese with emoji and a long title, no duration known, no kbps.
    static let japanese = RadioSnapshot(
        channel: ChannelInfo(id: "61", name: "日本語チャンネル"),
        track: Track(sid: "3003", title: "夜に駆ける 🎵 (Live at 日本武道館 2021)", artist: "YOASOBI 👍🏽",
                     album: "THE BOOK", year: "2021", liked: true, url: "http://127.0.0.1/3.mp3"),
        position: 5, volume: 100, queueLength: 0, channels: channels)

    /// Playing, not liked, Hangul (precomposed syllables, double width) with an emoji and a
    /// title long enough to be cut at 40 columns; two reports wait to be sent.
    static let korean = RadioSnapshot(
        channel: ChannelInfo(id: "82", name: "한국어 채널"),
        track: Track(sid: "4004", title: "밤편지 (Through the Night) 🌙 어쿠스틱", artist: "아이유 (IU)",
                     album: "팔레트", year: "2017", kbps: 256, length: 253, liked: false,
                     url: "http://127.0.0.1/4.mp3"),
        position: 100, volume: 70, queueLength: 1, channels: channels, pendingReports: 2)
}
