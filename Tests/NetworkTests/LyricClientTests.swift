import Foundation
import Radio
import RadioAPI
import StationLink
import TestSupport
import Testing

/// mhz asking for lyrics over real HTTP: from the real `mhz serve` with a sidecar `.lrc`
/// beside its song, and from a station without the call, which means no lyrics.
struct LyricClientTests {
    @Test func theClientGetsASongsSidecarLyricsFromTheRealStation() async throws {
        let station = try await ServedStation(songs: 1)
        let lrc = "[ar:Tone]\n[00:00.20]first\n[00:00.60]<00:00.60>second\n"
        try Data(lrc.utf8).write(to: station.home.path("music/song1.lrc"))
        let seam = try await Seam(base: station.url)
        let client = try seam.client(.app)
        let track = try #require(try await client.send(Report(type: .new, channel: "0")).first)
        #expect(track.ssid.count == 4, "\(track.ssid)")
        let sheet = try #require(await client.lyrics(sid: track.sid, ssid: track.ssid))
        #expect(sheet.artist == "Tone")
        #expect(sheet.lines == [.init(time: 0.2, text: "first"), .init(time: 0.6, text: "second")])
        #expect(station.requests.last == "/v2/fm/lyric")
        #expect(try await station.stop() == 0)
    }

    @Test func aStationWithoutTheCallMeansNoLyricsAfterOneExactRequest() async throws {
        let seam = try await Seam()
        let client = try seam.client(.app)
        #expect(await client.lyrics(sid: "1234", ssid: "ab12") == nil)
        let calls = seam.server.calls.filter { $0.path == "/v2/fm/lyric" }
        #expect(calls.count == 1)
        #expect(calls.first?.method == "POST" && calls.first?.formText == "sid=1234&ssid=ab12")
    }
}
