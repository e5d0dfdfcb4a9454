import Foundation
import TestSupport
import Testing

/// Every headless command that changes playback rather than the song, through the built
/// mhz against a live station: what each answers on stdout, what `status` then says, and
/// which report the station got. And the exact keys of the `playing` line scripts read.
struct HeadlessCommandTests {
    @Test func pauseResumeToggleVolumeSeekAndUnlikeDoWhatTheySay() async throws {
        try await HeadlessRadioTests.LiveStation.with { station in
            let home = try TemporaryDirectory(prefix: "mhz-commands")
            try await BuiltMhz(["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                                "--data-dir", home.path("data").path, "--channel", "0"],
                               environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
                .whileRunning { mhz in try await Self.drive(mhz, station) }
        }
    }

    /// The commands, one after another, each checked by its answer.
    private static func drive(_ mhz: BuiltMhz, _ station: HeadlessRadioTests.LiveStation) async throws {
        var index = 0
        /// Sends `line` and returns the next event named `name`.
        func send(_ line: String, expect name: String) async throws -> BuiltMhz.Event {
            mhz.send(line)
            let found = try await mhz.waitFor(name, after: index)
            index = found.index + 1
            return found.event
        }
        /// Asks for `status` until `match` holds for it (mpv applies volume and seeks
        /// asynchronously: the first answer may come before it has).
        func status(until match: (BuiltMhz.Event) -> Bool) async throws -> BuiltMhz.Event {
            let found = try await mhz.status(after: index, until: match)
            index = found.index + 1
            return found.event
        }
        let first = try await mhz.waitFor("playing")
        index = first.index + 1
        let sid = try #require(first.event["sid"])
        // The keys scripts rely on, exactly (`reason`: why the station chose the song, which
        // the embedded station always says).
        #expect(Set(first.event.fields.keys) == ["album", "artist", "channel", "event", "length", "like", "reason", "sid",
                                                 "title"])

        // pause freezes the position; resume lets it run again.
        #expect(try await send("pause", expect: "paused")["sid"] == sid)
        let frozen = try await send("status", expect: "status")
        #expect(frozen.fields["paused"] as? Bool == true)
        // A clock, on purpose: that a paused song's position stays put can only be seen
        // by letting real time pass. A busy machine cannot make this fail wrongly (a paused
        // position never moves); at worst a starved player would let a broken pause pass.
        try await Task.sleep(for: .milliseconds(600))
        let stillFrozen = try await send("status", expect: "status")
        #expect(stillFrozen.number("position") == frozen.number("position"))
        #expect(try await send("resume", expect: "resumed")["sid"] == sid)
        #expect(try await send("status", expect: "status").fields["paused"] as? Bool == false)

        // toggle twice: paused, then playing again.
        #expect(try await send("toggle", expect: "paused")["sid"] == sid)
        #expect(try await send("toggle", expect: "resumed")["sid"] == sid)

        // volume: the status says it back.
        mhz.send("volume 35")
        #expect(try await status { $0.number("volume") == 35 }.number("volume") == 35)

        // seek absolute, then back and forward by seconds: the position follows.
        mhz.send("pause")
        func near(_ seconds: Double) -> (BuiltMhz.Event) -> Bool {
            { abs(($0.number("position") ?? -100) - seconds) < 0.6 }
        }
        mhz.send("seek 12")
        let at12 = try await status(until: near(12))
        #expect(near(12)(at12), "\(at12.fields)")
        mhz.send("seek -5")
        let at7 = try await status(until: near(7))
        #expect(near(7)(at7), "\(at7.fields)")
        mhz.send("seek +3")
        let at10 = try await status(until: near(10))
        #expect(near(10)(at10), "\(at10.fields)")
        mhz.send("resume")

        // like then unlike: `r` then `u` for the song, each once.
        #expect(try await send("like", expect: "liked")["sid"] == sid)
        #expect(try await send("unlike", expect: "unliked")["sid"] == sid)
        let unrate = try await station.waitForReport { $0.parameter("type") == "u" }
        #expect(unrate.parameter("sid") == sid)
        let feedback = station.reports.filter { ["r", "u"].contains($0.parameter("type")) }
        #expect(feedback.map { "\($0.parameter("type") ?? "") \($0.parameter("sid") ?? "")" } == ["r \(sid)", "u \(sid)"])

        mhz.send("quit")
        #expect(try await mhz.exit() == 0)
    }
}
