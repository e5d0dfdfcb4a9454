import Foundation
import RadioAPI
@testable import Station
import TestSupport
import Testing

/// `mhz --live <channel>` headless with real libmpv (`ao=null`) against a real station
/// broadcasting three short generated songs: the `playing` events say `live` and how far
/// behind, and name the song whose audio is heard, as the station's `aired.json` dates it.
@Suite(.serialized)
struct LiveListeningTests {
    /// The genre of every song: the library's one public channel.
    static let genre = "Liveclient"

    /// Three sines of different lengths (a song changes every few seconds, and a song heard
    /// at the live edge, three 1-second segments behind the newest, is still the one on the
    /// air for a while after it is first heard) in `folder`.
    static func library(in folder: URL) async throws -> URL {
        try await offPool { () throws -> URL in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, frequency, seconds) in [("Red", 330, 6.3), ("Green", 440, 5.7), ("Blue", 550, 7.1)] {
                try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                                "-i", "sine=frequency=\(frequency):duration=\(seconds):sample_rate=44100",
                                                "-ac", "2", "-c:a", "flac", "-metadata", "title=\(name)",
                                                "-metadata", "artist=Band \(name)", "-metadata", "genre=\(genre)",
                                                folder.appendingPathComponent("\(name).flac").path])
            }
            return folder
        }
    }

    /// A station (not started) over ``library(in:)`` in `data`'s `music`, keeping its data in
    /// `station`, broadcasting with 1-second segments and not analysing sound.
    static func station(in data: TemporaryDirectory) async throws -> Station {
        var configuration = StationConfiguration(library: try await library(in: data.path("music")),
                                                 fallsBackToDemo: false,
                                                 dataDirectory: data.path("station"), seed: 5, rescanInterval: nil)
        configuration.analysesSound = false
        configuration.live.segmentDuration = .seconds(1)
        return try await Station(configuration: configuration)
    }

    /// Runs `body` with a started ``station(in:)``, its base URL, its data folder and a home
    /// for mhz, both temporary and named from `prefix`; the station is stopped and both folders
    /// removed when `body` ends, whether it throws or not.
    static func withStation(
        _ prefix: String,
        _ body: (_ station: Station, _ base: URL, _ data: TemporaryDirectory, _ home: TemporaryDirectory) async throws -> Void
    ) async throws {
        let data = try TemporaryDirectory(prefix: prefix)
        defer { data.remove() }
        let home = try TemporaryDirectory(prefix: prefix + "-home")
        defer { home.remove() }
        let station = try await Self.station(in: data)
        do {
            try await body(station, try await station.start(), data, home)
        } catch {
            await station.stop()
            throw error
        }
        await station.stop()
    }

    /// The built mhz in an 80 × 24 tmux with `arguments` against `base`, `home` its HOME and
    /// folders (a clean environment), null audio; its exit status lands in `home/status`.
    static func terminal(_ arguments: String, base: URL, home: String) throws -> TmuxDriver {
        let command = "cd '\(home)' && env -i PATH=/usr/bin:/bin HOME='\(home)' XDG_CONFIG_HOME='\(home)/config' "
            + "LANG=C.UTF-8 TERM=xterm-256color '\(BuiltMhz.executable.path)' \(arguments) --server \(base.absoluteString) "
            + "--audio-output null --data-dir '\(home)/data'; echo \"exit=$?\" > '\(home)/status.tmp'; "
            + "mv '\(home)/status.tmp' '\(home)/status'; sleep 30"
        return try TmuxDriver(command: command, columns: 80, rows: 24)
    }

    /// A body fetched with curl.
    static func get(_ url: String) throws -> Data {
        let output = try Tool.run("curl", ["-sf", "--max-time", "5", url])
        guard output.status == 0 else { throw TestSupportError.timeout("curl \(url) failed: \(output.status)") }
        return output.stdout
    }

    /// The id of the channel of ``genre``.
    static func channel(_ base: URL) throws -> String {
        let object = try JSONSerialization.jsonObject(with: get(base.absoluteString + "/j/app/radio/channels"))
        let channels = (object as? [String: Any])?["channels"] as? [[String: Any]] ?? []
        let id = try #require(channels.first { $0["name"] as? String == genre }?["channel_id"] as? Int)
        return String(id)
    }

    /// `aired.json`'s rows, read with the model mhz reads them with.
    static func aired(_ base: URL, _ channel: String) throws -> [AiredSong] {
        try JSONDecoder().decode(AiredList.self, from: get(base.absoluteString + "/live/\(channel)/aired.json")).songs
    }

    /// The broadcast's newest end and the start of its third segment from the end (where a
    /// player joining starts), in ms since the epoch, read in-process: no playlist request
    /// of the test's own beside mhz's.
    static func edge(_ station: Station, _ channel: String) throws -> (newestEnd: Int64, join: Int64) {
        let segments = try #require(station.liveHub.broadcast(channel)?.snapshot.segments)
        let last = try #require(segments.last)
        return (last.end, segments[max(0, segments.count - 3)].start)
    }

    /// The sids of the aired songs whose audio overlaps the moment a `playing` event with
    /// `behind` names, read from the station as the event arrives: the live edge less the
    /// joining distance less `behind`, within a segment before (the edge the player knows is
    /// the newest segment's end moved on by the clock) and a second after.
    static func heardSids(_ station: Station, _ base: URL, _ channel: String, behind: Double) throws -> Set<String> {
        let edge = try edge(station, channel)
        let moment = edge.join - Int64(behind * 1000)
        let rows = try aired(base, channel)
        return Set(rows.filter { $0.start < moment + 1000 && $0.end > moment - 2500 }.map(\.sid))
    }

    @Test("live playing events name the song heard, behind the edge after a seek back, at it again after live")
    func liveEventsFollowTheAudio() async throws {
        try await LiveListeningTests.withStation("mhz-live-client") { station, base, data, home in
            let mhz: BuiltMhz
            let channel = try Self.channel(base)
            mhz = try BuiltMhz(["--live", channel, "--headless", "--audio-output", "null", "--server", base.absoluteString,
                                "--data-dir", home.path("data").path], home: home.url)
            do {
                // At the edge: two song changes, each naming a song whose audio the moment holds.
                let first = try await mhz.waitFor("playing") { $0.fields["live"] as? Bool == true }
                var last = first
                for _ in 0..<1 {
                    last = try await mhz.waitFor("playing", after: last.index + 1)
                    let behind = try #require(last.event.number("behind"), "\(last.event.fields)")
                    #expect(last.event.fields["live"] as? Bool == true)
                    #expect(behind < 3, "at the edge: \(behind)")
                    let heard = try Self.heardSids(station, base, channel, behind: behind)
                    #expect(heard.contains(last.event["sid"] ?? ""), "\(last.event.fields) not in \(heard)")
                    let row = try Self.aired(base, channel).first { $0.sid == last.event["sid"] }
                    #expect(row?.title == last.event["title"])
                }
                #expect(first.event["sid"] != nil && first.event["channel"] == channel)

                // Five seconds back (once the look-back holds them: the broadcast began with
                // this mhz): the song of that moment, about five seconds behind. A song
                // change heard before the seek takes effect may come first.
                try await waitUntil("ten seconds of look-back", within: .seconds(20)) {
                    let segments = station.liveHub.broadcast(channel)?.snapshot.segments ?? []
                    return (segments.last?.end ?? 0) - (segments.first?.start ?? Int64.max) >= 10_000
                }
                mhz.send("seek -5")
                let back = try await mhz.waitFor("playing", after: last.index + 1) { ($0.number("behind") ?? 0) >= 3 }
                let behindBack = try #require(back.event.number("behind"), "\(back.event.fields)")
                #expect((4...9).contains(behindBack), "after seek -5 (the segment holding the moment, and the player's start): \(behindBack)")
                let heardBack = try Self.heardSids(station, base, channel, behind: behindBack)
                #expect(heardBack.contains(back.event["sid"] ?? ""), "\(back.event.fields) not in \(heardBack)")

                // Back to the edge.
                mhz.send("live")
                let again = try await mhz.waitFor("playing", after: back.index + 1) { ($0.number("behind") ?? 99) < 3 }
                let behindAgain = try #require(again.event.number("behind"), "\(again.event.fields)")
                #expect(behindAgain < 3, "after live: \(behindAgain)")
                let heardAgain = try Self.heardSids(station, base, channel, behind: behindAgain)
                #expect(heardAgain.contains(again.event["sid"] ?? ""), "\(again.event.fields) not in \(heardAgain)")

                // Feedback on the song heard goes to the live channel's route, as this one
                // listener (its playlists and its votes carry the same listener id): a like, and a
                // skip that ends the song for everyone.
                let heardSid = try #require(again.event["sid"])
                mhz.send("like")
                let liked = try await mhz.waitFor("liked", after: again.index)
                #expect(liked.event["sid"] == heardSid)
                mhz.send("skip")
                let voted = try await mhz.waitFor("voted", after: liked.index)
                #expect(voted.event["sid"] == heardSid && voted.event["type"] == "s", "\(voted.event.fields)")
                // The songs are seconds long: on a busy machine the skip can reach the station
                // just after the song heard left the air, which is no vote ("ended", the late
                // vote's answer, LiveFeedbackTests); otherwise it is this listener's vote.
                if voted.event.fields["ended"] as? Bool == true {
                    #expect(voted.event.fields["on_air"] as? Bool == false && voted.event.number("votes") == 0
                                && voted.event.fields["ending"] as? Bool == false, "\(voted.event.fields)")
                } else {
                    #expect(voted.event.fields["on_air"] as? Bool == true, "\(voted.event.fields)")
                    #expect(voted.event.number("votes") == 1 && voted.event.number("listeners") == 1, "\(voted.event.fields)")
                    #expect(voted.event.fields["ending"] as? Bool == true, "\(voted.event.fields)")
                }

                mhz.send("status")
                let status = try await mhz.waitFor("status", after: voted.index)
                #expect(status.event.fields["live"] as? Bool == true && status.event.number("behind") != nil)
                mhz.send("quit")
                #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
            } catch {
                mhz.kill()
                throw error
            }
        }
    }

    @Test("in the terminal UI the header says LIVE, how far behind after ←, LIVE again after e")
    func theScreenSaysLiveOrHowFarBehind() async throws {
        try await LiveListeningTests.withStation("mhz-live-tui") { station, base, data, _ in
            let channel = try Self.channel(base)
            let home = data.url.path
            let tmux = try Self.terminal("--live \(channel)", base: base, home: home)
            let screen = { (try? tmux.capture().joined(separator: "\n")) ?? "" }
            #expect(try await tmux.waitForScreen(containing: "playing · LIVE", seconds: 30), "\(screen())")
            // ← is ten seconds back, once the look-back holds them.
            try await waitUntil("fourteen seconds of look-back", within: .seconds(25)) {
                let segments = station.liveHub.broadcast(channel)?.snapshot.segments ?? []
                return (segments.last?.end ?? 0) - (segments.first?.start ?? Int64.max) >= 14_000
            }
            // About ten seconds behind (the headless test holds the number to its range). A ←
            // that comes while the stream is being opened again is refused ("nothing playing"),
            // as it would be for a person, who presses it again: so is it here, only while the
            // header still says LIVE, every 8 s.
            try tmux.send("Left")
            var pressed = ContinuousClock.now
            let behind = try await tmux.wait(seconds: 40) {
                let shown = screen()
                if shown.contains("playing · LIVE"), ContinuousClock.now - pressed > .seconds(8) {
                    try? tmux.send("Left")
                    pressed = .now
                }
                return shown.contains("playing · −00:")
            }
            #expect(behind, "\(screen())")
            try tmux.send("e")
            #expect(try await tmux.waitForScreen(containing: "playing · LIVE", seconds: 15), "\(screen())")
            try tmux.send("q")
            let status = data.path("status")
            #expect(try await tmux.wait(seconds: 15) { FileManager.default.fileExists(atPath: status.path) }, "\(screen())")
            #expect(try String(contentsOf: status, encoding: .utf8) == "exit=0\n")
        }
    }

    @Test("without --server, the embedded station broadcasts on loopback; a private channel is refused in one line")
    func embeddedStation() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-live-embedded")
        defer { home.remove() }
        let library = try await Self.library(in: home.path("music")).path
        let refused = try await BuiltMhz.run(["--live", "0", "--headless", "--audio-output", "null", "--library", library,
                                              "--data-dir", home.path("data").path], home: home.url)
        #expect(refused.status == 1)
        #expect(refused.stderr == "mhz: the embedded station has no live broadcast of channel 0: it broadcasts its "
                    + "public channels only (`mhz channels` lists them; not 0 nor -3)\n", "\(refused.stderr)")
        let mhz = try BuiltMhz(["--live", "1", "--headless", "--audio-output", "null", "--library", library,
                                "--data-dir", home.path("data").path], home: home.url)
        do {
            let playing = try await mhz.waitFor("playing")
            #expect(playing.event.fields["live"] as? Bool == true && playing.event.number("behind") != nil)
            #expect(["Red", "Green", "Blue"].contains(playing.event["title"] ?? ""), "\(playing.event.fields)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
        } catch {
            mhz.kill()
            throw error
        }
    }
}
