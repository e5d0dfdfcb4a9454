import Foundation
import Station
import Store
import TestSupport
import Testing

/// The whole path, real end to end: the station on an ephemeral 127.0.0.1 port over a
/// synthesized library, the `mhz` executable headless with real libcurl and real libmpv
/// (`ao=null`), commands on stdin, JSON events on stdout, and the exact requests the
/// station received.
@Suite(.serialized)
struct HeadlessRadioTests {
    /// The station and what it has been asked.
    final class LiveStation: Sendable {
        let station: Station
        let url: URL
        let dataDirectory: TemporaryDirectory
        private let log = Locked<[StationRequest]>([])

        /// Starts a station over the demo library, copied in from ``DemoSeed`` as a first
        /// start leaves it: none of these tests is about the first start's synthesis.
        init() async throws {
            dataDirectory = try TemporaryDirectory(prefix: "mhz-e2e-station")
            try await DemoSeed.copy(to: dataDirectory.path("demo-library"))
            let log = self.log
            station = try await Station(configuration: StationConfiguration(
                library: nil, dataDirectory: dataDirectory.url, seed: 7,
                onRequest: { request in log.withLock { $0.append(request) } }))
            url = try await station.start()
        }

        /// Stops the station and removes its data: at the end of a test, awaited (a deferred
        /// task may never run once the last test has returned).
        func close() async {
            await station.stop()
            dataDirectory.remove()
        }

        /// Runs `body` with a new station, closed however `body` ended (after the mhz
        /// `body` ran, which its `whileRunning` has killed by then).
        static func with<T>(_ body: (LiveStation) async throws -> T) async throws -> T {
            let station = try await LiveStation()
            return try await withCleanup({ try await body(station) }, cleanup: { await station.close() })
        }

        /// Requests to the playlist endpoint, in order.
        var reports: [StationRequest] { log.withLock { $0 }.filter { $0.path == "/j/app/radio/people" } }

        /// Waits until the station has seen a playlist request matching `match`; throws,
        /// naming the requests it did see, when it has not within `limit`.
        func waitForReport(within limit: Duration = .seconds(30), _ match: (StationRequest) -> Bool) async throws
            -> StationRequest {
            do {
                return try await waitForValue("the station seeing the report", within: limit) { reports.first(where: match) }
            } catch TestSupportError.timeout {
                throw TestSupportError.timeout("station never saw the report; saw: \(reports.map { $0.query })")
            }
        }
    }

    @Test func playsSkipsLikesTrashesAndSwitchesChannelsAgainstTheStation() async throws {
        try await LiveStation.with { station in
            let data = try TemporaryDirectory(prefix: "mhz-e2e-client")
            try await BuiltMhz([
                "--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                "--data-dir", data.url.path, "--channel", "0",
            ], environment: ["XDG_CONFIG_HOME": data.url.path]).whileRunning { mhz in
                // Start: `n` on channel 0 with an empty sid, then the first song plays.
                let channel = try await mhz.waitFor("channel")
                #expect(channel.event["id"] == "0")
                let first = try await mhz.waitFor("playing")
                let firstSid = try #require(first.event["sid"])
                #expect(first.event["channel"] == "0")
                #expect(first.event["title"]?.isEmpty == false)
                #expect((first.event.number("length") ?? 0) >= 20)
                let start = try #require(station.reports.first)
                #expect(start.parameter("type") == "n")
                #expect(start.parameter("channel") == "0")
                #expect(start.parameter("sid") == "")

                // time-pos advances: audio is being clocked, not just "loaded".
                mhz.send("status")
                let s1 = try await mhz.waitFor("status", after: first.index)
                let p1 = try #require(s1.event.number("position"))
                let s2 = try await mhz.status(after: s1.index + 1) { ($0.number("position") ?? 0) - p1 >= 0.8 }
                #expect(s2.event["sid"] == firstSid)

                // Skip: `s` with the sid and the history; the next song starts without waiting.
                mhz.send("skip")
                let skipped = try await mhz.waitFor("skipped", after: s2.index)
                #expect(skipped.event["sid"] == firstSid)
                let second = try await mhz.waitFor("playing", after: skipped.index)
                let secondSid = try #require(second.event["sid"])
                #expect(secondSid != firstSid)
                let skipReport = try await station.waitForReport { $0.parameter("type") == "s" }
                #expect(skipReport.parameter("sid") == firstSid)
                #expect(skipReport.parameter("channel") == "0")
                #expect(skipReport.parameter("h") == "|\(firstSid):s")
                #expect(skipReport.parameter("pt").flatMap(Double.init).map { $0 > 0.5 } == true)

                // Like: `r` for the song playing; the event says so.
                mhz.send("like")
                let liked = try await mhz.waitFor("liked", after: second.index)
                #expect(liked.event["sid"] == secondSid)
                let likeReport = try await station.waitForReport { $0.parameter("type") == "r" }
                #expect(likeReport.parameter("sid") == secondSid)
                #expect(likeReport.parameter("channel") == "0")
                #expect(likeReport.parameter("h") == nil, "a short report carries no history")

                // Trash: `b`, and `h` now carries the whole history in order.
                mhz.send("trash")
                let trashed = try await mhz.waitFor("trashed", after: liked.index)
                #expect(trashed.event["sid"] == secondSid)
                let third = try await mhz.waitFor("playing", after: trashed.index)
                #expect(third.event["sid"] != secondSid)
                let trashReport = try await station.waitForReport { $0.parameter("type") == "b" }
                #expect(trashReport.parameter("sid") == secondSid)
                #expect(trashReport.parameter("h") == "|\(firstSid):s|\(secondSid):r|\(secondSid):b")

                // Channel switch: `n` on the new channel, and its songs play.
                mhz.send("channel 1")
                let switched = try await mhz.waitFor("channel", after: third.index) { $0["id"] == "1" }
                #expect(switched.event["name"]?.isEmpty == false)
                let onNew = try await mhz.waitFor("playing", after: switched.index) { $0["channel"] == "1" }
                let newChannelReport = try await station.waitForReport { $0.parameter("type") == "n" && $0.parameter("channel") == "1" }
                #expect(newChannelReport.parameter("sid") == "")
                #expect(newChannelReport.parameter("h")?.hasPrefix("|\(firstSid):s") == true)
                #expect(onNew.event["sid"] != nil)

                // The station saw these reports in this order, each as the app family sends it.
                let sequence = station.reports.map { $0.parameter("type") ?? "?" }.filter { $0 != "p" }
                #expect(sequence == ["n", "s", "r", "b", "n"], "\(sequence)")
                for report in station.reports {
                    #expect(report.parameter("app_name") == "radio_android" && report.parameter("version") == "100",
                            "\(report.query)")
                    #expect(report.parameter("token") == nil, "anonymous: no session parameters")
                }

                // An unknown command is an error event, not a crash; quit exits 0.
                mhz.send("dance")
                let error = try await mhz.waitFor("error", after: onNew.index)
                #expect(error.event["message"]?.hasPrefix("there is no command “dance” — commands are: pause, resume,") == true)
                // A line past the limit is one error event, read no further; the next line is a command.
                mhz.send(String(repeating: "x", count: 3 * 4096))
                let tooLong = try await mhz.waitFor("error", after: error.index + 1)
                #expect(tooLong.event["message"] == "it is longer than 4096 bytes, so it was skipped")
                mhz.send("quit")
                #expect(try await mhz.exit() == 0)
                // Every stdout line was a JSON object.
                #expect(mhz.lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
            }
        }
    }

    @Test func endOfInputKeepsPlayingAndSigtermStopsCleanly() async throws {
        try await stopsCleanlyOnSignal(SIGTERM)
    }

    /// Ctrl-C in a terminal, or `kill -INT`: the same clean stop as SIGTERM.
    @Test func sigintStopsCleanlyWithTheProgressSaved() async throws {
        try await stopsCleanlyOnSignal(SIGINT)
    }

    /// Plays, closes stdin (playback goes on), sends `signal`: exit 0 with the song, its
    /// channel and the position playback had reached saved.
    func stopsCleanlyOnSignal(_ signal: Int32) async throws {
        try await LiveStation.with { station in
            let data = try TemporaryDirectory(prefix: "mhz-e2e-client")
            try FileManager.default.createDirectory(at: data.path("run"), withIntermediateDirectories: true)
            // Its control socket in a folder of the test's: `mhz ctl status` asks it once stdin is closed.
            let environment = ["XDG_CONFIG_HOME": data.url.path, "XDG_RUNTIME_DIR": data.path("run").path]
            try await BuiltMhz([
                "--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                "--data-dir", data.url.path,
            ], environment: environment).whileRunning { mhz in
                let playing = try await mhz.waitFor("playing")
                let sid = try #require(playing.event["sid"])
                mhz.send("status")
                let status = try await mhz.waitFor("status", after: playing.index)
                let reached = try #require(status.event.number("position"))
                mhz.closeInput()
                // Playback goes on past the EOF: `mhz ctl status` (stdin is closed) is asked
                // until the position has run a second on, or mhz has stopped. Both statuses
                // round to a tenth of a second, so a second on is 1.1 s on by their words.
                let position = try await waitForValue("the position a second past \(reached) s", within: .seconds(30),
                                                      every: .milliseconds(200)) { () async throws -> Double? in
                    let ctl = try BuiltMhz(["ctl", "--data-dir", data.url.path, "status"], environment: environment, stdin: "")
                    #expect(try await ctl.exit(timeout: 20) == 0, "EOF on stdin must not stop playback: \(ctl.stderr)")
                    let answer = try #require(ctl.events.first, "\(ctl.stdout)")
                    #expect(answer["sid"] == sid)
                    let position = try #require(answer.number("position"))
                    return position >= reached + 1.1 || !mhz.isRunning ? position : nil
                }
                #expect(mhz.isRunning, "EOF on stdin must not stop playback")
                mhz.signal(signal)
                #expect(try await mhz.exit() == 0, "signal \(signal); stderr: \(mhz.stderr)")
                #expect(!mhz.lines.contains { $0.contains("\"ended\"") }, "stopped mid-song")
                // Progress was saved on the way out: past where the status saw it, a second earlier.
                let database = try MhzDatabase(path: data.url.appendingPathComponent("mhz.sqlite"))
                let saved = try #require(try database.lastPosition())
                #expect(saved.sid == sid)
                #expect(saved.channel == "0")
                #expect(saved.position >= 1.0)
                #expect(saved.position >= reached + 1, "saved \(saved.position) s; ctl said \(position) s, status \(reached) s before")
                #expect(try database.setting("radio.last_channel") == "0")
            }
        }
    }

    /// Asks `status` until the song has played on for a second past `saved`, and checks
    /// that mpv really resumed there: a player that had started the song from 0 would pass
    /// through positions short of `saved` on the way (the radio's own position starts at
    /// `saved` whatever mpv does, so one early status could not tell).
    func expectPlaysOn(_ mhz: BuiltMhz, sid: String, from saved: Double, after index: Int) async throws {
        var seen: [Double] = []
        let last = try await mhz.status(after: index + 1, within: .seconds(30)) { status in
            seen.append(status.number("position") ?? -1)
            return status["sid"] != sid || (status.number("position") ?? 0) >= saved + 1
        }
        #expect(last.event["sid"] == sid, "still the resumed song")
        #expect(seen.allSatisfy { $0 >= saved - 0.5 }, "resumed from \(saved) s, positions seen: \(seen)")
    }

    @Test func aRestartResumesTheSongAtItsPosition() async throws {
        try await LiveStation.with { station in
            let data = try TemporaryDirectory(prefix: "mhz-e2e-client")
            let arguments = ["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                             "--data-dir", data.url.path]
            let (sid, before) = try await BuiltMhz(arguments, environment: ["XDG_CONFIG_HOME": data.url.path])
                .whileRunning { first in
                    let playing = try await first.waitFor("playing")
                    let sid = try #require(playing.event["sid"])
                    let before = try #require(try await first.status(after: playing.index + 1, within: .seconds(30)) {
                        ($0.number("position") ?? 0) >= 3
                    }.event.number("position"))
                    first.send("quit")
                    #expect(try await first.exit() == 0)
                    return (sid, before)
                }

            let saved = try #require(try MhzDatabase(path: data.url.appendingPathComponent("mhz.sqlite")).lastPosition())
            #expect(saved.sid == sid)
            // `status` rounds to a tenth of a second.
            #expect(saved.position >= before - 0.05, "quit saved \(saved.position) s; status said \(before) s before it")

            try await BuiltMhz(arguments, environment: ["XDG_CONFIG_HOME": data.url.path]).whileRunning { second in
                let resumed = try await second.waitFor("playing")
                #expect(resumed.event["sid"] == sid, "the same song")
                try await expectPlaysOn(second, sid: sid, from: saved.position, after: resumed.index)
                second.send("quit")
                #expect(try await second.exit() == 0)
            }
        }
    }

    /// The default mode: no `--server`, the embedded station answered in-process and its
    /// songs played from their files. The saved song names its file, and the restart
    /// resumes it there.
    @Test func aRestartResumesTheSongWithTheEmbeddedStation() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-e2e-embedded")
        let library = home.path("music")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for name in ["one", "two", "three"] {
            try await offPool { try MediaFactory.tone(at: library.appendingPathComponent("\(name).mp3"), seconds: 40) }
        }
        let arguments = ["--headless", "--audio-output", "null", "--data-dir", home.path("data").path,
                         "--library", library.path]
        let environment = ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path]
        let sid = try await BuiltMhz(arguments, environment: environment).whileRunning { first in
            let playing = try await first.waitFor("playing", timeout: 60)
            let sid = try #require(playing.event["sid"])
            _ = try await first.status(after: playing.index + 1, within: .seconds(30)) { ($0.number("position") ?? 0) >= 3 }
            first.send("quit")
            #expect(try await first.exit() == 0)
            return sid
        }
        let database = try MhzDatabase(path: home.path("data/mhz.sqlite"))
        let saved = try #require(try database.lastPosition())
        #expect(saved.sid == sid)
        #expect(saved.position >= 2, "played 3 s before quitting; saved \(saved.position) s")
        let file = try #require(URL(string: saved.url), "\(saved.url)")
        #expect(file.isFileURL && file.path.hasPrefix(library.path + "/") && file.path.hasSuffix(".mp3"), "\(saved.url)")

        try await BuiltMhz(arguments, environment: environment).whileRunning { second in
            let resumed = try await second.waitFor("playing", timeout: 60)
            #expect(resumed.event["sid"] == sid, "the same song; events: \(second.lines)")
            try await expectPlaysOn(second, sid: sid, from: saved.position, after: resumed.index)
            second.send("quit")
            #expect(try await second.exit() == 0)
            #expect(!second.lines.contains { $0.contains("\"error\"") }, "\(second.lines)")
        }
        let last = try #require(try database.lastPosition())
        #expect(last.sid == sid && last.url == saved.url, "\(last.url)")
    }

    /// A kill -9 while playing loses at most the last few seconds of
    /// position (it is saved every 3 s of playback), and the restart resumes that song there.
    @Test func aKillDashNineLosesAtMostTheLastFewSecondsAndTheRestartResumesThere() async throws {
        try await LiveStation.with { station in
            let data = try TemporaryDirectory(prefix: "mhz-e2e-client")
            let arguments = ["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                             "--data-dir", data.url.path]
            let (sid, position) = try await BuiltMhz(arguments, environment: ["XDG_CONFIG_HOME": data.url.path])
                .whileRunning { first in
                    let playing = try await first.waitFor("playing")
                    let sid = try #require(playing.event["sid"])
                    // Play on until the song is past 6 s (two saves at least), then kill without warning.
                    let past = try await first.status(after: playing.index + 1, within: .seconds(60)) {
                        $0["sid"] != sid || ($0.number("position") ?? 0) > 6.2
                    }
                    #expect(past.event["sid"] == sid, "still the first song")
                    let position = try #require(past.event.number("position"))
                    first.signal(SIGKILL)
                    #expect(try await first.exit() != 0)
                    #expect(!first.lines.contains { $0.contains("\"ended\"") }, "killed mid-song")
                    return (sid, position)
                }

            let database = try MhzDatabase(path: data.url.appendingPathComponent("mhz.sqlite"))
            let saved = try #require(try database.lastPosition())
            #expect(saved.sid == sid)
            #expect(saved.position <= position + 0.5, "saved \(saved.position) s, was at \(position) s")
            #expect(position - saved.position <= 4, "lost \(position - saved.position) s of \(position) s")

            try await BuiltMhz(arguments, environment: ["XDG_CONFIG_HOME": data.url.path]).whileRunning { second in
                let resumed = try await second.waitFor("playing")
                #expect(resumed.event["sid"] == sid, "the same song")
                second.send("status")
                let status = try await second.waitFor("status", after: resumed.index)
                #expect(status.event["sid"] == sid)
                let at = try #require(status.event.number("position"))
                #expect(at >= saved.position - 0.5 && at <= saved.position + 2.5,
                        "resumed at \(at) s; saved \(saved.position) s; killed at \(position) s")
                try await expectPlaysOn(second, sid: sid, from: saved.position, after: status.index)
                second.send("quit")
                #expect(try await second.exit() == 0)
            }
        }
    }
}
