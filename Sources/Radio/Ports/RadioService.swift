import RadioAPI

/// The radio's view of a station: fetch the channel list, send a report and get songs back.
/// The composition root implements it over HTTP and RadioAPI; tests implement it in memory.
public protocol RadioService: Sendable {
    /// The channels the station offers.
    func channels() async throws(ServiceFailure) -> [ChannelInfo]
    /// Sends one report. Returns the songs of the answer: a new list for long reports,
    /// usually nothing for short ones (an acknowledgement).
    func send(_ report: Report) async throws(ServiceFailure) -> [Track]

    /// The lyrics of a song (Douban's `/v2/fm/lyric`), parsed; nil when the song has none
    /// or the station does not answer the call, which is no failure: the radio plays on
    /// without lyrics. A default in `RadioService+Lyrics.swift` answers nil.
    func lyrics(sid: String, ssid: String) async -> LyricSheet?
}
