import Foundation
@testable import Station
import Testing
import TestSupport

/// The web player's live channels (docs/PROTOCOL.md §11) in Chromium, which plays HLS
/// natively: over the live fixtures' library with 1-second segments, so a test hears several
/// songs in seconds. What the page shows is checked against `aired.json` and the playlists;
/// a live channel shows when the station stops answering, and shows no cover left over from
/// the radio. A suite with a browser of its own, beside ``WebPlayerBrowserTests``.
@Suite("Web player in Chromium: live channels", .serialized, SharedChromium())
struct WebPlayerLiveTests: ChromiumPage {
    /// The page's audio plays past its first moments.
    static let livePlaying = "(() => { const a = document.querySelector('audio'); return !a.paused && a.currentTime > 0.5; })()"

    /// Runs `body` with a live station over `library` (the live fixtures' by default) and its channel of `genre`, the page open and tuned in to it live.
    private func withLivePage(library: URL? = nil, genre: String = LiveFixtures.genre,
                              _ body: (WebDriverSession, URL, String, RequestLog) async throws -> Void) async throws {
        let log = RequestLog()
        let music = try await LiveFixtures.library
        try await StationFixtures.withDemoStation(library: library ?? music, onRequest: log.hook, adjust: {
            $0.analysesSound = false
            $0.live.segmentDuration = .seconds(1)
        }) { _, base in
            let channels = try await HTTPFetch.get(base, "/j/app/radio/channels").jsonObject()["channels"] as? [[String: Any]] ?? []
            let channel = String(try #require(channels.first { $0["name"] as? String == genre }?["channel_id"] as? Int))
            try await withPage(base) { page in
                #expect(try await page.value("document.querySelector('audio').canPlayType('application/vnd.apple.mpegurl')") as? String != "")
                // Only the public channels are broadcast.
                let live = try await page.value("[...document.querySelectorAll('[data-live]')].map((b) => b.dataset.live)") as? [String]
                #expect(live?.contains(channel) == true && live?.contains("0") == false && live?.contains("-3") == false)
                try await page.click("[data-live=\"\(channel)\"]")
                try await page.waitFor("the live channel to play", Self.livePlaying)
                try await page.waitFor("a song heard", "(\(Self.currentSid)) !== null")
                try await body(page, base, channel, log)
            }
        }
    }

    /// The aired songs, newest first, as (sid, title, start, end).
    private func aired(_ base: URL, _ channel: String) async throws -> [(sid: String, title: String, start: Int64, end: Int64)] {
        let songs = try await HTTPFetch.get(base, "/live/\(channel)/aired.json").jsonObject()["songs"] as? [[String: Any]] ?? []
        return songs.map { ($0["sid"] as? String ?? "", $0["title"] as? String ?? "",
                            ($0["start"] as? NSNumber)?.int64Value ?? 0, ($0["end"] as? NSNumber)?.int64Value ?? 0) }
    }

    /// The sids of the aired songs on at `moment` (ms), give or take `slack` ms.
    private func songs(at moment: Int64, slack: Int64 = 600, _ base: URL, _ channel: String) async throws -> Set<String> {
        Set(try await aired(base, channel).filter { $0.start - slack <= moment && moment < $0.end + slack }.map(\.sid))
    }

    /// Whether `request` is the live master playlist of `channel` naming the listener `id`
    /// and nothing else.
    private static func plays(_ request: StationRequest, _ channel: String, _ id: String) -> Bool {
        request.path == "/live/\(channel).m3u8" && request.query.count == 1 && request.parameter("listener") == id
    }

    /// The title and sid the page shows.
    private func shown(_ page: WebDriverSession) async throws -> (title: String, sid: String) {
        (try await page.value("document.querySelector('[data-field=title]').textContent") as? String ?? "",
         try #require(try await page.value(Self.currentSid) as? String))
    }

    @Test("a live channel plays through the live playlist; now playing is the aired song the audio is at; back 30 s plays the look-back, Live comes back")
    func livePlaysAndRewinds() async throws {
        try await withLivePage { page, base, channel, log in
            #expect(try await page.value("document.querySelector('#live-controls').hidden") as? Bool == false)
            // The page reads the master playlist for its listener id, then plays it naming that id.
            let tuned = log.all.filter { $0.path == "/live/\(channel).m3u8" }
            let id = try #require(tuned.last?.parameter("listener"))
            #expect(tuned.count == 2 && tuned.first?.query.isEmpty == true && tuned.last?.query.count == 1, "\(tuned)")
            #expect(try await page.value("document.querySelector('[data-field=live]').textContent") as? String == "LIVE")
            // Live: the moment heard is now less what the browser holds ahead of what it plays.
            // The page reads aired.json afresh and shows that moment's song, and the moment is
            // taken in the same breath: between its reads (every 2 s, later on a busy machine)
            // the page may still show the song before a change.
            let sample = try #require(try await page.value("""
                (async () => {
                  await aired();
                  const a = document.querySelector('audio');
                  return [Date.now() - 1000 * (a.buffered.end(a.buffered.length - 1) - a.currentTime),
                          document.querySelector('[data-field=title]').textContent, \(Self.currentSid)];
                })()
                """) as? [Any])
            let heard = try #require(sample.first as? Double)
            let now = (title: sample.dropFirst().first as? String ?? "", sid: try #require(sample.last as? String))
            let on = try await songs(at: Int64(heard), base, channel)
            #expect(on.contains(now.sid), "showing \(now) at \(heard), aired then: \(on)")
            #expect(try await aired(base, channel).first { $0.sid == now.sid }?.title == now.title)

            // Enough air for the look-back to be behind the edge by more than the live delay.
            try await page.waitFor("eight seconds heard", "document.querySelector('audio').currentTime > 8")
            try await page.press("\u{E012}")  // WebDriver's ArrowLeft
            try await page.waitFor("the look-back playing", "document.querySelector('[data-field=live]').textContent.startsWith('−') && \(Self.livePlaying)")
            let back = try #require(log.all.last { $0.path == "/live/\(channel).m3u8" && $0.parameter("begintime") != nil })
            let begin = try #require(Int64(back.parameter("begintime") ?? ""))
            #expect(Int64(back.parameter("endtime") ?? "").map { $0 > begin } == true)
            // The look-back's first segment's date plus the audio's clock is the moment heard.
            let list = try await LiveFixtures.playlist(base, channel, query: "begintime=\(begin)")
            let first = try #require(list.entries.first.flatMap { LiveFixtures.milliseconds($0.dateTime) })
            try await page.waitFor("the song of that moment", "(\(Self.currentSid)) !== '\(now.sid)' || document.querySelector('audio').currentTime > 1")
            let clock = try #require(try await page.value("document.querySelector('audio').currentTime") as? Double)
            let then = try await shown(page)
            let onThen = try await songs(at: first + Int64(clock * 1000), base, channel)
            #expect(onThen.contains(then.sid), "showing \(then) at \(first) + \(clock) s, aired then: \(onThen)")
            let late = try #require(try await page.value("document.querySelector('[data-field=live]').textContent") as? String)
            #expect(late.hasPrefix("−0:"), "\(late)")

            // → past the edge is live again; back once more, and the Live button brings it back too.
            var before = log.all.count
            try await page.press("\u{E014}")  // WebDriver's ArrowRight
            try await page.waitFor("live after →", "document.querySelector('[data-field=live]').textContent === 'LIVE' && \(Self.livePlaying)")
            #expect(log.all.dropFirst(before).contains { request in Self.plays(request, channel, id) })
            try await page.click("[data-action=rewind]")
            try await page.waitFor("back again", "document.querySelector('[data-field=live]').textContent.startsWith('−') && \(Self.livePlaying)")
            before = log.all.count
            try await page.click("[data-action=golive]")
            try await page.waitFor("live again", "document.querySelector('[data-field=live]').textContent === 'LIVE' && \(Self.livePlaying)")
            #expect(log.all.dropFirst(before).contains { request in Self.plays(request, channel, id) })
        }
    }

    @Test("n on a live channel votes to skip the song heard at /live/<id>/feedback; the status line shows the tally; a pause resumes where it paused")
    func liveSkip() async throws {
        // Songs of a minute: the song heard, a few seconds behind the air, is still on it.
        try await withLivePage(library: try await LiveFeedbackTests.libraryTask.value, genre: "Skiptest") { page, _, channel, log in
            let heard = try await shown(page)
            try await page.press("n")
            try await page.waitFor("the tally", "document.querySelector('#status').textContent.startsWith('Skip: ')")
            let votes = log.all.filter { $0.path == "/live/\(channel)/feedback" }
            #expect(votes.map { $0.method } == ["POST"])
            #expect(votes.map { $0.parameter("type") ?? "" } == ["s"])
            #expect(votes.map { $0.parameter("sid") ?? "" } == [heard.sid])
            // The vote names the listener id the page's playlist requests carry.
            let played = log.all.last { $0.path == "/live/\(channel).m3u8" && $0.parameter("listener") != nil }
            #expect(votes.map { $0.parameter("listener") } == [try #require(played?.parameter("listener"))])
            let status = try await page.value("document.querySelector('#status').textContent") as? String
            // The browser's polls and its vote carry one id: one listener, whose vote ends the song.
            #expect(status == "Skip: 1 of 1 listening voted; the song ends for everyone.", "\(status ?? "")")

            // Paused on the live edge for a while, space goes on from the moment paused, behind
            // the edge (space with no control focused: on the live button it would press it).
            try await page.run("document.activeElement.blur();")
            try await page.press(" ")
            try await page.waitFor("the pause", "document.querySelector('audio').paused")
            let paused = Date()
            try await page.waitFor("four seconds paused", "(window.pausedSince = window.pausedSince || Date.now()) && Date.now() - window.pausedSince > 4000")
            try await page.press(" ")
            try await page.waitFor("the sound behind the edge", "document.querySelector('[data-field=live]').textContent.startsWith('−') && \(Self.livePlaying)")
            let resumed = try #require(log.all.last { $0.path == "/live/\(channel).m3u8" && $0.parameter("begintime") != nil })
            let begin = try #require(Int64(resumed.parameter("begintime") ?? ""))
            // The moment paused: within the few seconds the browser plays behind the edge.
            let pausedAt = Int64(paused.timeIntervalSince1970 * 1000)
            #expect(begin <= pausedAt && begin > pausedAt - 10_000, "begintime \(begin), paused at \(pausedAt)")
        }
    }

    @Test("the Live list is the channels the list marks live: one the list does not mark (nor 0, -3) has no live entry and plays as the radio")
    func onlyChannelsMarkedLive() async throws {
        let log = RequestLog()
        try await StationFixtures.withDemoStation(onRequest: log.hook) { _, base in
            let listed = try await HTTPFetch.get(base, "/j/app/radio/channels").jsonObject()["channels"] as? [[String: Any]] ?? []
            let marked = listed.filter { $0["live"] as? Bool == true }.map { ($0["channel_id"] as? NSNumber)?.stringValue ?? "" }
            // mhz's station broadcasts every public channel; channel 1 as another station
            // would list it: without the mark.
            #expect(marked.contains("1") && !marked.contains("0"), "\(listed)")
            try await withScriptBeforePage("""
                const fetched = window.fetch;
                window.fetch = async (url, options) => {
                  const answer = await fetched(url, options);
                  if (String(url) !== "/j/app/radio/channels") return answer;
                  const list = await answer.json();
                  for (const c of list.channels) if (String(c.channel_id) === "1") delete c.live;
                  return new Response(JSON.stringify(list), { headers: { "Content-Type": "application/json" } });
                };
                """) {
                try await withPage(base) { page in
                    let live = try await page.value("[...document.querySelectorAll('[data-live]')].map((b) => b.dataset.live)") as? [String]
                    #expect(live == marked.filter { $0 != "1" }, "\(live ?? [])")
                    // Still a channel of the radio's list, which plays its songs.
                    try await page.click("[data-channel=\"1\"]")
                    try await page.waitFor("a song of channel 1", Self.playing)
                    #expect(log.all.filter { $0.path == "/j/v2/playlist" && $0.parameter("type") == "n" }.map { $0.parameter("channel") } == ["1"])
                    #expect(!log.all.contains { $0.path.hasPrefix("/live/") })
                    #expect(try await page.value("document.querySelector('#live-controls').hidden") as? Bool == true)
                }
            }
        }
    }

    @Test("the song heard is the aired entry whose start and end hold the moment (the latest to start when two do), by start and end alone: none past every end, on the air or not")
    func songOfAMoment() async throws {
        try await StationFixtures.withDemoStation { _, base in
            try await withPage(base) { page in
                // Newest first, as aired.json lists them: the song on the air expected to end at
                // 3000 though the next started at 2000 (a copy read before it ended early).
                let heard = try await page.value("""
                    (() => {
                      const songs = [{ sid: "c", start: 2000, end: 2600, on_air: true },
                                     { sid: "b", start: 1000, end: 3000, on_air: false },
                                     { sid: "a", start: 0, end: 1000, on_air: false }];
                      return [0, 999, 1000, 1999, 2000, 2599, 2600, 2999, 3000].map((t) => (heardAt(t, songs) || { sid: "" }).sid);
                    })()
                    """) as? [String]
                #expect(heard == ["a", "a", "b", "b", "c", "c", "b", "b", ""])
                let onAir = try await page.value("(heardAt(5000, [{ sid: 'x', start: 0, end: 4000, on_air: true }]) || null)")
                #expect(onAir == nil || onAir is NSNull)
            }
        }
    }

    @Test("a browser without native HLS: a live entry plays the channel's songs and the page says so in one line")
    func noNativeHLS() async throws {
        let log = RequestLog()
        try await StationFixtures.withDemoStation(onRequest: log.hook) { _, base in
            try await withPage(base) { page in
                try await page.run("HTMLMediaElement.prototype.canPlayType = () => '';")
                try await page.click("[data-live=\"1\"]")
                try await page.waitFor("a song of channel 1", Self.playing)
                #expect(try await page.value("document.querySelector('#status').textContent") as? String
                    == "This browser cannot play live HLS: here are the channel's songs instead.")
                #expect(log.all.filter { $0.path == "/j/v2/playlist" && $0.parameter("type") == "n" }.map { $0.parameter("channel") } == ["1"])
                #expect(!log.all.contains { $0.path.hasPrefix("/live/") })
                #expect(try await page.value("document.querySelector('#live-controls').hidden") as? Bool == true)
            }
        }
    }

    @Test("a live channel tuned in after a radio channel shows no cover and no alt text of the radio's last song")
    func liveAfterRadioHasNoCover() async throws {
        try await StationFixtures.withDemoStation { _, base in
            try await withPage(base) { page in
                try await page.click("[data-channel=\"1\"]")
                try await page.waitFor("a song with its cover", "\(Self.playing) && document.querySelector('#cover').alt !== ''")
                try await page.click("[data-live=\"1\"]")
                let cover = try await page.value("[document.querySelector('#cover').hasAttribute('src'), document.querySelector('#cover').alt]") as? [Any]
                #expect(cover?.first as? Bool == false)
                #expect(cover?.last as? String == "")
            }
        }
    }

    @Test("a live channel whose station stops answering says so instead of LIVE, and plays live again when it is back")
    func liveStationAway() async throws {
        let music = try await LiveFixtures.library
        // A fixed port, so the station comes back where the page looks for it.
        let (probe, port) = try LoopbackSocket.listen(backlog: 1)
        close(probe)
        try await StationFixtures.withDemoStation(library: music, adjust: {
            $0.port = port
            $0.live.segmentDuration = .seconds(1)
        }) { station, base in
            let channels = try await HTTPFetch.get(base, "/j/app/radio/channels").jsonObject()["channels"] as? [[String: Any]] ?? []
            let channel = String(try #require(channels.first { $0["name"] as? String == LiveFixtures.genre }?["channel_id"] as? Int))
            try await withPage(base) { page in
                try await page.click("[data-live=\"\(channel)\"]")
                try await page.waitFor("the live channel to play", Self.livePlaying + " && document.querySelector('[data-field=live]').textContent === 'LIVE'")
                await station.stop()
                try await page.waitFor("the page saying the station is not answering",
                                       "document.querySelector('[data-field=live]').textContent === 'Not answering'"
                                           + " && document.querySelector('#status').textContent.startsWith('The station is not answering')")
                #expect(try await page.value("document.querySelector('[data-field=live]').dataset.edge") as? String == "away")
                _ = try await station.start()
                try await page.waitFor("live again", "document.querySelector('[data-field=live]').textContent === 'LIVE'"
                    + " && document.querySelector('#status').textContent === 'The station is back.' && \(Self.livePlaying)",
                    within: .seconds(30))
            }
        }
    }
}
