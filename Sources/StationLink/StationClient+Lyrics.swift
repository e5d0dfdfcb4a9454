import Foundation
import Radio
import RadioAPI

extension StationClient {
    /// A song's lyrics from the station's `/v2/fm/lyric` (docs/PROTOCOL.md §10), asked of
    /// the server the lists come from; nil when the song has none or the station does not
    /// answer the call (a 404, a web page, Douban's rate limit, a network failure): lyrics
    /// are extra, so no failure of theirs reaches the radio.
    public func lyrics(sid: String, ssid: String) async -> LyricSheet? {
        let request = LyricEndpoint(baseURL: endpoints.baseURL).lyric(sid: sid, ssid: ssid)
        guard let body = try? await transport.perform(request),
              let answer = try? APIDecoder.lyric(body) else { return nil }
        let sheet = LyricSheet(parsing: answer.lyric)
        return sheet.isEmpty ? nil : sheet
    }
}

extension StationEndpoints {
    /// The server root of either family.
    public var baseURL: URL {
        switch self {
        case .app(let endpoints): endpoints.baseURL
        case .web(let endpoints): endpoints.baseURL
        }
    }
}
