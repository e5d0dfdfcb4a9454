import Foundation
import TestSupport
import Testing

/// The built headless mhz against the fake station through a ``FaultProxy``: what the
/// listener sees (the exact events) and what the station receives (every report once, in
/// the order made) while the network misbehaves. Timeouts are shortened through
/// `config.toml`, never waited out.
@Suite(.serialized)
struct FaultScenarioTests {
    /// The station goes down (every connection dropped, with a FIN or an RST) and up
    /// three times while the listener likes, skips and trashes: libcurl's quick retries
    /// give up, the reports wait in the outbox (`status` says how many), and once the
    /// station is back each reaches it exactly once, in the order made, also after one
    /// more retry wait has passed.
    @Test func aFlappingStationGetsEveryReportOnceAndInOrder() async throws {
        let world = try await FaultScenario()
        defer { world.stop() }
        // The outages drop connections, which fail at once; a request's time limit is only
        // ever met by a slow answer of the station that is up, and a report it had taken
        // but answered too late is sent again (the protocol has no way to ask). Far above
        // any answer's time on a busy machine (2 s was met once, and the report came twice).
        try await world.startMhz(settings: ["timeout = 30"]).whileRunning { mhz in
            var index = try await mhz.waitFor("playing").index + 1
            var made: [String] = []
            var pendingSeen: [Int] = []
            /// Sends `command`, waits for its event (and the next song after a skip or trash),
            /// and notes the report it makes as `type sid`.
            func act(_ command: String) async throws {
                let (event, type) = ["like": ("liked", "r"), "skip": ("skipped", "s"), "trash": ("trashed", "b")][command]!
                mhz.send(command)
                let done = try await mhz.waitFor(event, after: index)
                made.append("\(type) \(done.event["sid"] ?? "")")
                index = done.index + 1
                if command != "like" { index = try await mhz.waitFor("playing", after: index, timeout: 30).index + 1 }
            }
            // Down (a FIN, then an RST for every connection) long enough for libcurl's own
            // retries to give up, so the reports wait in the outbox; up again until the outbox
            // is empty (the skip's answer refills the queue the next outage plays from).
            for (down, commands) in [(FaultMode.drop(reset: false), ["like", "skip", "like"]),
                                     (.drop(reset: true), ["trash", "like"]),
                                     (.drop(reset: false), ["like", "skip"])] {
                world.proxy.setMode(down)
                let outage = index
                for command in commands { try await act(command) }
                // libcurl gave up: the radio says the station is unreachable (once per outage).
                index = max(index, try await mhz.waitFor("error", after: outage, timeout: 30).index + 1)
                let held = try await mhz.status(after: index) { _ in true }
                index = held.index + 1
                pendingSeen.append(Int(held.event.number("pending_reports") ?? 0))
                world.proxy.setMode(.passThrough)
                index = try await mhz.status(after: index, within: .seconds(30)) { $0.fields["pending_reports"] == nil }.index + 1
            }
            // Every report was held at each outage, and the outbox empties once the station is back.
            #expect(pendingSeen.allSatisfy { $0 > 0 }, "reports waiting at each outage: \(pendingSeen)")
            index = try await mhz.status(after: index) { $0.fields["pending_reports"] == nil }.index + 1
            // One more report, made with the station up: it goes through the same line, after
            // anything still in it, so once the station has as many reports as were made, a
            // duplicate of an earlier one would be among them.
            try await act("skip")
            func feedback() -> [String] { world.stationReports.filter { ["r", "s", "b", "e", "u"].contains($0.prefix(1)) } }
            try await waitUntil("the last skip at the station") { feedback().count >= made.count }
            #expect(feedback() == made, "the station got \(world.stationReports); mhz made \(made)")
            #expect(world.proxy.counts.dropped >= 3, "\(world.proxy.counts)")
            // What the listener saw: each command's own event, songs, and only this error.
            // libcurl's words depend on when the drop meets it: a reset while reading, an empty
            // reply after a FIN, or a refused connect when the RST beats curl's connect check.
            let causes = ["Recv failure: Connection reset by peer", "Empty reply from server"]
            let refused = /Failed to connect to 127\.0\.0\.1 port \d+ after \d+ ms: Couldn't connect to server/
            let errors = mhz.events.filter { $0.name == "error" }.compactMap { $0["message"] }
            #expect(!errors.isEmpty && errors.allSatisfy { message in
                guard let cause = message.wholeMatch(of: /Station unreachable \((.+)\) — check --server or your network; retrying\./)?.1
                else { return false }
                return causes.contains(String(cause)) || cause.wholeMatch(of: refused) != nil
            }, "\(errors)")
            let names = mhz.events.map(\.name).filter { !["error", "status", "channel"].contains($0) }
            #expect(names == ["playing", "liked", "skipped", "playing", "liked", "trashed", "playing", "liked", "liked",
                              "skipped", "playing", "skipped", "playing"], "\(mhz.lines)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
    }

    /// The song's stream stalls mid-song (a proxy in front of a Range-capable media server,
    /// trickling the song a little faster than it plays): ffmpeg's own reconnects meet the
    /// stall too, mpv ends the item early, and mhz reloads the same song at its position.
    @Test func aStreamThatStallsMidSongResumesTheSongWhereItWas() async throws {
        let world = try await FaultScenario()
        defer { world.stop() }
        let songs = world.home.path("songs")
        try FileManager.default.createDirectory(at: songs.appendingPathComponent("media"), withIntermediateDirectories: true)
        try await offPool { try MediaFactory.tone(at: songs.appendingPathComponent("tone.mp3"), seconds: 30) }
        for sid in ["101", "102", "103", "ad"] {
            // MP3 bytes under the station's .wav names: mpv goes by the content.
            try FileManager.default.copyItem(at: songs.appendingPathComponent("tone.mp3"),
                                             to: songs.appendingPathComponent("media/\(sid).wav"))
        }
        let server = try FaultyMediaServer(root: songs)
        defer { server.stop() }
        let media = try FaultProxy(upstream: URL(string: server.baseURL)!)
        defer { media.stop() }
        world.station.serveMedia(from: media.baseURL)
        // 20 kB/s of a 16 kB/s (128 kbit/s) song: mpv's cache stays a second or so ahead.
        let trickle = FaultMode.trickle(bytes: 2000, everyMilliseconds: 100)
        media.setMode(trickle)
        try await world.startMhz(settings: ["timeout = 2", "stream_timeout = 1"]).whileRunning { mhz in
            let playing = try await mhz.waitFor("playing")
            let sid = try #require(playing.event["sid"])
            let before = try await mhz.status(after: playing.index) { ($0.number("position") ?? 0) >= 2 }
            let stalledAt = try #require(before.event.number("position"))
            media.setMode(.stall)
            let reconnecting = try await mhz.waitFor("reconnecting", after: before.index, timeout: 30)
            media.setMode(trickle)
            let reconnected = try await mhz.waitFor("reconnected", after: reconnecting.index)
            // Playing on, the same song, never from before where it stalled.
            var seen: [Double] = []
            let on = try await mhz.status(after: reconnected.index) { status in
                seen.append(status.number("position") ?? -1)
                return status["sid"] == sid && (status.number("position") ?? 0) >= stalledAt + 1.5
            }
            #expect(seen.allSatisfy { $0 >= stalledAt - 0.5 }, "stalled at \(stalledAt) s; positions after: \(seen)")
            // Exactly: the song, the attempt, the recovery; no skip, end, other song or error.
            let story = mhz.events[playing.index...on.index].filter { $0.name != "status" }
                .map { "\($0.name) \($0["sid"] ?? "") \($0["attempt"] ?? "")/\($0["of"] ?? "")" }
            #expect(story == ["playing \(sid) /", "reconnecting \(sid) 1/4", "reconnected \(sid) /"], "\(story)")
            // The stall was real: the song's connection and at least one reconnect of ffmpeg's
            // were held, and none of those reached the server once given up on.
            #expect(media.counts.stalled >= 2, "\(media.counts)")
            #expect(media.counts.connections > media.counts.forwarded, "reconnects given up on: \(media.counts)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
    }

    /// The playlist's answer never ends (its head at once, then a byte every 400 ms): mhz
    /// gives up after its configured timeout (1 s, not the default 15 s), says so, retries,
    /// and plays once the station answers again.
    @Test func aPlaylistAnswerThatNeverEndsTimesOutAndPlaysWhenTheStationAnswers() async throws {
        let world = try await FaultScenario()
        defer { world.stop() }
        let playlist = "/j/app/radio/people"
        world.proxy.setMode(.trickle(bytes: 1, everyMilliseconds: 400), onlyFor: playlist)
        try await world.startMhz(settings: ["timeout = 1"]).whileRunning { mhz in
            let error = try await mhz.waitFor("error")
            let message = try #require(error.event["message"])
            let words = /Station unreachable \(Operation timed out after (\d+) milliseconds with \d+ out of \d+ bytes received\) — check --server or your network; retrying\./
            let waited = try #require(message.wholeMatch(of: words).flatMap { Int($0.1) }, "\(message)")
            // libcurl's own count of the wait: the configured second, give or take its clock.
            #expect((1000..<1500).contains(waited), "\(message)")
            // One request and libcurl's two retries, each cut at the timeout.
            let tries = world.proxy.records.filter { $0.path == playlist }
            #expect(tries.count == 3 && tries.allSatisfy { $0.action == .forwarded }, "\(tries)")
            let gaps = zip(tries, tries.dropFirst()).map { $0.0.time.duration(to: $0.1.time) }
            #expect(gaps.allSatisfy { $0 >= .seconds(1) && $0 < .seconds(15) }, "\(gaps)")
            world.proxy.setMode(.passThrough)
            let playing = try await mhz.waitFor("playing", after: error.index)
            #expect(mhz.events[...playing.index].map(\.name) == ["channel", "error", "playing"], "\(mhz.lines)")
            #expect(world.stationReports.allSatisfy { $0 == "n " }, "only the start's list was asked: \(world.stationReports)")
            #expect(world.stationReports.count == 4)
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
    }

    /// A burst of 429s on the playlist: mhz says the station is limiting requests, waits
    /// longer each time (libcurl's retries 0.5 s then 1 s apart, the radio's own waits 1 s
    /// then 2 s), and plays when the burst is over.
    @Test func aBurstOf429sBacksOffSaysSoAndThenPlays() async throws {
        let world = try await FaultScenario()
        defer { world.stop() }
        let playlist = "/j/app/radio/people"
        world.proxy.setMode(.answer(status: 429, retryAfter: nil, count: 6), onlyFor: playlist)
        try await world.startMhz(settings: ["timeout = 2"]).whileRunning { mhz in
            let playing = try await mhz.waitFor("playing")
            let limiting = "Station is limiting requests (HTTP 429) — mhz waits and tries again; nothing to do."
            #expect(mhz.events[...playing.index].map { $0.name == "error" ? $0["message"] ?? "" : $0.name }
                        == ["channel", limiting, limiting, "playing"], "\(mhz.lines)")
            let tries = world.proxy.records.filter { $0.path == playlist }
            #expect(tries.map(\.action) == Array(repeating: .answered(429), count: 6) + [.forwarded])
            let gaps = zip(tries, tries.dropFirst()).map { $0.0.time.duration(to: $0.1.time) }
            try #require(gaps.count == 6)
            // Two rounds of three tries: within each libcurl's second wait is the longer, and
            // the radio's wait after the second round is longer than after the first.
            #expect(gaps[1] > gaps[0] && gaps[4] > gaps[3], "\(gaps)")
            #expect(gaps[5] > gaps[2] && gaps[5] == gaps.max(), "\(gaps)")
            #expect(world.station.calls(to: playlist).count == 1, "the burst never reached the station")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
    }
}
