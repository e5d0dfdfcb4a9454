import RadioAPI

/// A station's live broadcasts as the live listening needs them (docs/PROTOCOL.md §11):
/// the playlist's window, the programme aired, and the address mpv plays. Declared here so
/// the radio reaches HTTP and the playlist parser only through the composition root.
public protocol LiveStation: Sendable {
    /// The channel's media playlist: the live window when `begin` is nil, else every
    /// segment from the one holding `begin` (ms since the epoch) on.
    func window(channel: String, from begin: Int64?) async throws(ServiceFailure) -> LiveWindow
    /// The songs aired on the channel, newest first.
    func aired(channel: String) async throws(ServiceFailure) -> [AiredSong]
    /// The master playlist that plays the channel from the segment holding `begin` on, live.
    func streamURL(channel: String, from begin: Int64) -> String
    /// The listener's word on song `sid`: `rate`, `unrate` teach the channel's shared
    /// listener, `skip` votes to end it, `ban` does both.
    func feedback(channel: String, type: ReportType, sid: String) async throws(ServiceFailure) -> LiveTally
}
