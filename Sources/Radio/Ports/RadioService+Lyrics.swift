import RadioAPI

extension RadioService {
    /// No lyrics: for a service without the lyric call (test doubles, a station that never
    /// had one).
    public func lyrics(sid: String, ssid: String) async -> LyricSheet? { nil }
}
