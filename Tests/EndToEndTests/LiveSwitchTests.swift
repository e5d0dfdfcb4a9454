import Foundation
@testable import Station
import TestSupport
import Testing

/// The radio becomes a live channel's listening: `live <id>` (the channel list's `L`) ends
/// the radio as `quit` does and the same mhz, on the same stdin, listens to the broadcast;
/// a channel the station does not list live is refused and the radio plays on. `radio`
/// (`r`) ends the listening and the radio plays again, resuming what it left.
@Suite(.serialized)
struct LiveSwitchTests {
    /// Runs `body` with the test station (its data under `prefix`), its live channel and the
    /// built mhz playing the radio headless on it with `more` arguments; mhz is killed when
    /// `body` ends, however it ends.
    static func withRadio(_ prefix: String, _ more: [String] = [],
                          _ body: (_ station: Station, _ channel: String, _ mhz: BuiltMhz) async throws -> Void) async throws {
        try await LiveListeningTests.withStation(prefix) { station, base, _, home in
            let channel = try await LiveListeningTests.channel(base)
            try await BuiltMhz(["--channel", channel, "--headless", "--audio-output", "null", "--server", base.absoluteString,
                                "--data-dir", home.path("data").path] + more, home: home.url).whileRunning { mhz in
                try await body(station, channel, mhz)
            }
        }
    }

    @Test("headless: live 0 is refused in one error line, live <id> says going_live and then plays the broadcast")
    func theRadioGoesLive() async throws {
        try await Self.withRadio("mhz-live-switch") { station, channel, mhz in
            let radio = try await mhz.waitFor("playing")
            #expect(radio.event.fields["live"] == nil, "the radio's own song first: \(radio.event.fields)")
            mhz.send("volume 40")
            // The player takes the volume in its own time: going live carries what it reports.
            let turned = try await mhz.status(after: radio.index) { $0.number("volume") == 40 }
            mhz.send("live 0")
            let refused = try await mhz.waitFor("error", after: turned.index)
            #expect(refused.event["message"] == "This station does not broadcast channel “0” live — the channel "
                        + "list marks the ones it does (`mhz channels` says “(live)”).", "\(refused.event.fields)")
            mhz.send("live \(channel)")
            let going = try await mhz.waitFor("going_live", after: refused.index)
            #expect(mhz.lines.contains(#"{"event":"going_live","id":"\#(channel)","name":"\#(LiveListeningTests.genre)"}"#),
                    "\(mhz.lines)")
            let live = try await mhz.waitFor("playing", after: going.index) { $0.fields["live"] as? Bool == true }
            #expect(live.event["channel"] == channel && live.event.number("behind") != nil, "\(live.event.fields)")
            #expect(["Red", "Green", "Blue"].contains(live.event["title"] ?? ""), "\(live.event.fields)")
            // The broadcast counts this mhz as its listener: it fetched the live playlists.
            #expect(station.liveHub.broadcast(channel)?.snapshot.segments.isEmpty == false)
            // At the volume the radio was left at.
            let status = try await mhz.status(after: live.index) { $0.fields["live"] as? Bool == true }
            #expect(status.event.number("volume") == 40, "\(status.event.fields)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
        }
    }

    @Test("headless: a broadcast the station refuses once the radio handed over is one error line, and the radio plays on its channel")
    func aRefusedBroadcastGivesTheRadioBack() async throws {
        try await Self.withRadio("mhz-live-refused") { station, channel, mhz in
            let radio = try await mhz.waitFor("playing")
            #expect(radio.event.fields["live"] == nil, "\(radio.event.fields)")
            // The radio keeps the channel list it read, which marks the channel live; the
            // station is gone when the broadcast is asked for.
            await station.stop()
            mhz.send("live \(channel)")
            let going = try await mhz.waitFor("going_live", after: radio.index)
            let prefix = "No live broadcast of channel “\(channel)”: Station unreachable"
            let refused = try await mhz.waitFor("error", after: going.index) { $0["message"]?.hasPrefix(prefix) == true }
            #expect(refused.event["message"]?.hasSuffix(") — what played before plays on; `mhz channels` marks the "
                        + "channels on the air.") == true, "\(refused.event.fields)")
            // mhz goes on as the radio, on its channel, and takes commands: once the new
            // radio session says its channel (commands between two sessions are dropped).
            let resumed = try await mhz.waitFor("channel", after: refused.index)
            #expect(resumed.event["id"] == channel, "\(resumed.event.fields)")
            let status = try await mhz.status(after: resumed.index) { $0["channel"] == channel }
            #expect(status.event.fields["live"] == nil, "\(status.event.fields)")
            #expect(!mhz.events[going.index...].contains { $0.fields["live"] as? Bool == true }, "\(mhz.lines)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
        }
    }

    @Test("headless: radio on a live channel says going_radio, and the radio plays again on its channel, its song resumed where it was left; a ctl follower sees it all on one socket")
    func theRadioComesBack() async throws {
        try await LiveListeningTests.withStation("mhz-live-back") { station, base, data, home in
            let environment = ["XDG_RUNTIME_DIR": home.path("run").path]
            let channel = try await LiveListeningTests.channel(base)
            let mhz = try BuiltMhz(["--channel", channel, "--headless", "--audio-output", "null", "--server", base.absoluteString,
                                    "--data-dir", home.path("data").path], home: home.url, environment: environment)
            try await mhz.whileRunning { mhz in
                let radio = try await mhz.waitFor("playing")
                #expect(radio.event.fields["live"] == nil, "\(radio.event.fields)")
                let sid = try #require(radio.event["sid"])
                // Following from here: its status answer says it is.
                try await BuiltMhz(["ctl", "--follow", "status", "--data-dir", home.path("data").path],
                                   home: home.url, environment: environment).whileRunning { following in
                    _ = try await following.waitFor("status")
                    // A second into the song, so that there is a position to save and resume.
                    let into = try await mhz.status(after: radio.index) { $0["sid"] == sid && ($0.number("position") ?? 0) >= 1 }
                    let left = try #require(into.event.number("position"))
                    mhz.send("live \(channel)")
                    let going = try await mhz.waitFor("going_live", after: into.index)
                    let live = try await mhz.waitFor("playing", after: going.index) { $0.fields["live"] as? Bool == true }
                    // The radio's own commands do not apply to a broadcast: one line, and it plays on.
                    mhz.send("download")
                    let refused = try await mhz.waitFor("error", after: live.index)
                    #expect(refused.event["message"] == "“download” is the radio's and does not apply to a live channel — "
                                + "`radio` goes back to the radio.", "\(refused.event.fields)")
                    mhz.send("radio")
                    let back = try await mhz.waitFor("going_radio", after: refused.index)
                    #expect(mhz.lines.contains(#"{"event":"going_radio"}"#), "\(mhz.lines)")
                    let again = try await mhz.waitFor("playing", after: back.index)
                    #expect(again.event.fields["live"] == nil && again.event["channel"] == channel, "\(again.event.fields)")
                    #expect(again.event["sid"] == sid, "the song left, resumed: \(again.event.fields), was \(sid)")
                    let resumed = try await mhz.status(after: again.index) { $0["sid"] == sid }
                    #expect((resumed.event.number("position") ?? 0) >= left, "\(resumed.event.fields), left at \(left)")
                    #expect(resumed.event.fields["live"] == nil, "\(resumed.event.fields)")
                    mhz.send("quit")
                    #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
                    // The socket stayed the same throughout: the follower saw both switches and
                    // the radio's song again, and ended with mhz.
                    #expect(try await following.exit(timeout: 20) == 0, "\(following.stderr)")
                    let seen = following.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                    let names = seen.compactMap { $0["event"] as? String }
                    let goingLive = try #require(names.firstIndex(of: "going_live"), "\(following.lines)")
                    let goingRadio = try #require(names.firstIndex(of: "going_radio"), "\(following.lines)")
                    #expect(goingLive < goingRadio)
                    #expect(seen[goingLive..<goingRadio].contains { $0["event"] as? String == "playing" && $0["live"] as? Bool == true },
                            "\(following.lines)")
                    #expect(seen[goingRadio...].contains { $0["event"] as? String == "playing" && $0["live"] == nil && $0["sid"] as? String == sid },
                            "\(following.lines)")
                }
            }
        }
    }

    @Test("headless: the sleep timer goes on from the radio to a live channel and back, with the time it has left")
    func theSleepTimerGoesAlong() async throws {
        try await Self.withRadio("mhz-live-sleep", ["--sleep", "1h"]) { _, channel, mhz in
            let set = try await mhz.waitFor("sleep")
            #expect(set.event.number("seconds") == 3600)
            let radio = try await mhz.waitFor("playing", after: set.index)
            mhz.send("live \(channel)")
            let going = try await mhz.waitFor("going_live", after: radio.index)
            // The live listening starts the timer with what was left of the hour.
            let carried = try await mhz.waitFor("sleep", after: going.index)
            let left = try #require(carried.event.number("seconds"))
            #expect(left > 3000 && left < 3600, "\(carried.event.fields)")
            let live = try await mhz.status(after: carried.index) { $0.fields["live"] as? Bool == true }
            #expect(Self.saysSleepWithinTheHour(live.event["status_text"]), "\(live.event.fields)")
            mhz.send("radio")
            let back = try await mhz.waitFor("going_radio", after: live.index)
            let again = try await mhz.waitFor("sleep", after: back.index)
            #expect((again.event.number("seconds") ?? 0) <= left, "\(again.event.fields), live had \(left)")
            let radioAgain = try await mhz.status(after: again.index) { ($0.fields["live"] as? Bool) == nil && $0["sid"] != nil }
            #expect(Self.saysSleepWithinTheHour(radioAgain.event["status_text"]), "\(radioAgain.event.fields)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
        }
    }

    /// Whether a status line ends telling a sleep timer with 59 to 60 minutes left (the
    /// time shown is rounded up to the second).
    static func saysSleepWithinTheHour(_ text: String?) -> Bool {
        text?.wholeMatch(of: /.*Sleep in (59:[0-5]\d|1:00:00)\./) != nil
    }

    @Test("mhz --live --sleep 2s fades the broadcast to silence in ten steps and exits 0")
    func aLiveListeningFallsAsleep() async throws {
        try await LiveListeningTests.withStation("mhz-live-asleep") { station, base, data, home in
            let channel = try await LiveListeningTests.channel(base)
            let mhz = try BuiltMhz(["--live", channel, "--headless", "--audio-output", "null", "--sleep", "2s",
                                    "--server", base.absoluteString, "--data-dir", home.path("data").path], home: home.url)
            try await mhz.whileRunning { mhz in
                let set = try await mhz.waitFor("sleep")
                #expect(set.event.number("seconds") == 2)
                #expect(try await mhz.exit(timeout: 30) == 0, "\(mhz.stderr)")
                let fades = mhz.events[set.index...].filter { $0.name == "fading" }.compactMap { $0.number("volume") }
                #expect(fades == [90, 80, 70, 60, 50, 40, 30, 20, 10, 0], "\(mhz.lines)")
            }
        }
    }

    @Test("mhz --live has the control socket: ctl status says live, ctl skip is a vote on the song heard")
    func theControlSocketDrivesTheLiveSession() async throws {
        try await LiveListeningTests.withStation("mhz-live-ctl") { station, base, data, home in
            let environment = ["XDG_RUNTIME_DIR": data.path("run").path, "XDG_CONFIG_HOME": data.path("config").path,
                               "HOME": data.url.path]
            let dataDirectory = data.path("data").path
            let channel = try await LiveListeningTests.channel(base)
            let mhz = try BuiltMhz(["--live", channel, "--headless", "--audio-output", "null", "--server", base.absoluteString,
                                    "--data-dir", dataDirectory], environment: environment)
            try await mhz.whileRunning { mhz in
                let playing = try await mhz.waitFor("playing") { $0.fields["live"] as? Bool == true }
                let ctl = { (arguments: [String]) async throws -> (Int32, [String]) in
                    let process = try BuiltMhz(["ctl", "--data-dir", dataDirectory] + arguments, environment: environment)
                    process.closeInput()
                    return (try await process.exit(timeout: 20), process.lines)
                }
                let (statusExit, status) = try await ctl(["status"])
                #expect(statusExit == 0)
                let answer = try #require(status.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
                                          as? [String: Any], "\(status)")
                #expect(answer["event"] as? String == "status" && answer["live"] as? Bool == true, "\(answer)")
                #expect(answer["channel"] as? String == channel, "\(answer)")
                let (skipExit, skip) = try await ctl(["skip"])
                #expect(skipExit == 0 && skip == [#"{"command":"skip","ok":true}"#], "\(skip)")
                let voted = try await mhz.waitFor("voted", after: playing.index)
                #expect(voted.event["type"] == "s" && voted.event.number("listeners") == 1, "\(voted.event.fields)")
                mhz.send("quit")
                #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
            }
        }
    }

    @Test("mhz --live on the session bus: playerctl sees the song heard, next is a skip vote, play-pause pauses")
    func mprisDrivesTheLiveSession() async throws {
        let bus = try await PrivateBus()
        defer { bus.stop() }
        try await LiveListeningTests.withStation("mhz-live-mpris") { station, base, data, home in
            var environment = ["XDG_RUNTIME_DIR": data.path("run").path, "XDG_CONFIG_HOME": data.path("config").path,
                               "HOME": data.url.path]
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            func playerctl(_ arguments: String...) async throws -> String { try await BusTool.playerctl(arguments, bus: bus) }
            let channel = try await LiveListeningTests.channel(base)
            let mhz = try BuiltMhz(["--live", channel, "--headless", "--audio-output", "null", "--server", base.absoluteString,
                                    "--data-dir", data.path("data").path], environment: environment)
            try await mhz.whileRunning { mhz in
                let playing = try await mhz.waitFor("playing") { $0.fields["live"] as? Bool == true }
                // The title shown is the song heard at that moment, which may change meanwhile.
                try await waitUntil("MPRIS showing a song of the broadcast", within: .seconds(20)) {
                    let shown = try? await playerctl("metadata", "xesam:title")
                    return ["Red", "Green", "Blue"].contains(shown ?? "")
                }
                _ = try await playerctl("next")
                let voted = try await mhz.waitFor("voted", after: playing.index)
                #expect(voted.event["type"] == "s", "\(voted.event.fields)")
                _ = try await playerctl("play-pause")
                _ = try await mhz.waitFor("paused", after: playing.index)
                mhz.send("quit")
                #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
            }
        }
    }

    @Test("in the terminal UI, the channel list marks live channels, L goes live and r back to the radio on the same screen")
    func theChannelListGoesLive() async throws {
        try await LiveListeningTests.withStation("mhz-live-switch-tui") { _, base, _, home in
            let channel = try await LiveListeningTests.channel(base)
            let terminal = try LiveListeningTests.terminal(["--channel", channel], base: base, home: home)
            try await terminal.waitForScreen(containing: "♡")
            try terminal.send("c")
            try await terminal.waitForScreen(containing: "live \(channel)")
            // The list opens on the channel playing: L listens to its broadcast.
            try terminal.send("L")
            try await terminal.waitForScreen(containing: "playing · LIVE")
            // The radio's keys say they do not apply; r goes back to the radio on the same screen.
            try terminal.send("]")
            try await terminal.waitForScreen(containing: "“variety-up” is the radio's")
            try terminal.send("r")
            try await waitUntil("the radio playing; screen:\n\(terminal.screen)") {
                let shown = terminal.screen
                return shown.contains("playing") && !shown.contains("LIVE")
            }
            try terminal.send("q")
            #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
        }
    }
}

/// The embedded station `mhz --live` serves on loopback broadcasts as `[live]` says, as
/// `mhz serve` does.
@Suite(.serialized)
struct EmbeddedLiveSettingsTests {
    @Test("[live] always puts the embedded station's channel on the air beside the one listened to")
    func alwaysIsHonoured() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-live-settings")
        defer { home.remove() }
        // Three songs of one genre (channel 1) and one decade (channel 2, the 2010s).
        let music = home.path("music")
        try await offPool { () throws in
            try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
            for (name, frequency) in [("Red", 330), ("Green", 440), ("Blue", 550)] {
                try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                                "-i", "sine=frequency=\(frequency):duration=4:sample_rate=44100",
                                                "-ac", "2", "-c:a", "flac", "-metadata", "title=\(name)",
                                                "-metadata", "artist=Band \(name)", "-metadata", "genre=Liveclient",
                                                "-metadata", "date=2015", music.appendingPathComponent("\(name).flac").path])
            }
        }
        let config = home.path("config.toml")
        try Data("[live]\nalways = [2]\nlookback = \"90m\"\n".utf8).write(to: config)
        let data = home.path("data")
        let mhz = try BuiltMhz(["--live", "1", "--headless", "--audio-output", "null", "--library", music.path,
                                "--data-dir", data.path, "--config", config.path], home: home.url)
        try await mhz.whileRunning { mhz in
            let playing = try await mhz.waitFor("playing")
            #expect(playing.event["channel"] == "1", "\(playing.event.fields)")
            // Nobody asked for channel 2: only `always` put it on the air, from the start.
            let segments = data.appendingPathComponent("station/live/2/128")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: segments.path)) ?? []
            #expect(files.contains("0.ts"), "channel 2's segments: \(files)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
        }
    }
}
