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
    /// `station`, broadcasting with 1-second segments and not analysing sound; `onRequest`
    /// sees each request it gets.
    static func station(in data: TemporaryDirectory,
                        onRequest: (@Sendable (StationRequest) -> Void)? = nil) async throws -> Station {
        var configuration = StationConfiguration(library: try await library(in: data.path("music")),
                                                 fallsBackToDemo: false,
                                                 dataDirectory: data.path("station"), seed: 5, rescanInterval: nil)
        configuration.analysesSound = false
        configuration.live.segmentDuration = .seconds(1)
        configuration.onRequest = onRequest
        return try await Station(configuration: configuration)
    }

    /// Runs `body` with a started ``station(in:onRequest:)``, its base URL, its data folder and
    /// a home for mhz, both temporary and named from `prefix`; the station is stopped and both
    /// folders removed when `body` ends, whether it throws or not.
    static func withStation(
        _ prefix: String, onRequest: (@Sendable (StationRequest) -> Void)? = nil,
        _ body: (_ station: Station, _ base: URL, _ data: TemporaryDirectory, _ home: TemporaryDirectory) async throws -> Void
    ) async throws {
        let data = try TemporaryDirectory(prefix: prefix)
        defer { data.remove() }
        let home = try TemporaryDirectory(prefix: prefix + "-home")
        defer { home.remove() }
        let station = try await Self.station(in: data, onRequest: onRequest)
        try await withCleanup {
            try await body(station, try await station.start(), data, home)
        } cleanup: {
            await station.stop()
        }
    }

    /// The built mhz in an 80 × 24 terminal with `arguments` against `base`, `home` its HOME
    /// and folders, null audio.
    static func terminal(_ arguments: [String], base: URL, home: TemporaryDirectory) throws -> TerminalMhz {
        try TerminalMhz(arguments + ["--server", base.absoluteString, "--audio-output", "null",
                                     "--data-dir", home.path("data").path], home: home.url)
    }

    /// A body fetched with curl, on a thread of its own (``Tool/output``): the station
    /// answers on this process's cooperative pool, which a curl waited for on one of its
    /// two threads (two tests at once) left with none to answer it.
    static func get(_ url: String) async throws -> Data {
        let output = try await Tool.output("curl", ["-sf", "--max-time", "5", url])
        guard output.status == 0 else { throw TestSupportError.timeout("curl \(url) failed: \(output.status)") }
        return output.stdout
    }

    /// The id of the channel of ``genre``.
    static func channel(_ base: URL) async throws -> String {
        let object = try JSONSerialization.jsonObject(with: await get(base.absoluteString + "/j/app/radio/channels"))
        let channels = (object as? [String: Any])?["channels"] as? [[String: Any]] ?? []
        let id = try #require(channels.first { $0["name"] as? String == genre }?["channel_id"] as? Int)
        return String(id)
    }

    /// `aired.json`'s rows, read with the model mhz reads them with.
    static func aired(_ base: URL, _ channel: String) async throws -> [AiredSong] {
        try JSONDecoder().decode(AiredList.self, from: await get(base.absoluteString + "/live/\(channel)/aired.json")).songs
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
    static func heardSids(_ station: Station, _ base: URL, _ channel: String, behind: Double) async throws -> Set<String> {
        let edge = try edge(station, channel)
        let moment = edge.join - Int64(behind * 1000)
        let rows = try await aired(base, channel)
        return Set(rows.filter { $0.start < moment + 1000 && $0.end > moment - 2500 }.map(\.sid))
    }

    /// The sids of the songs heard while a command sent when `events` held `sent` events was
    /// handled, up to its answer at `answer`: the last one a `playing` event named before it
    /// was sent and each one named after (the session says a song change at once, and it
    /// follows the audio while it waits for the station's answer).
    static func heard(from sent: Int, to answer: Int, in events: [BuiltMhz.Event]) -> Set<String> {
        let playing = events.prefix(answer).enumerated().filter { $0.element.name == "playing" }
        let before = playing.last { $0.offset < sent }.map { [$0] } ?? []
        return Set((before + playing.filter { $0.offset >= sent }).compactMap { $0.element["sid"] })
    }

    /// The air time (ms since the epoch) of the audio a `status` answer stands at: the
    /// station's airing of its song plus its position. A song airs again every few seconds;
    /// the airing is the one nearest where its `behind` puts the audio.
    static func moment(of status: BuiltMhz.Event, _ station: Station, _ base: URL, _ channel: String) async throws -> Int64 {
        let sid = try #require(status["sid"], "\(status.fields)")
        let position = Int64(try #require(status.number("position"), "\(status.fields)") * 1000)
        let near = try edge(station, channel).join - Int64((status.number("behind") ?? 0) * 1000)
        let rows = try await aired(base, channel)
        let airing = try #require(rows.filter { $0.sid == sid }
            .min { abs($0.start + position - near) < abs($1.start + position - near) }, "\(sid) not aired")
        return airing.start + position
    }

    /// The `begintime` of each stream a player opened (`GET /live/<channel>.m3u8`), as the
    /// station saw them, in order.
    final class OpenedStreams: Sendable {
        private let begins = Locked<[Int64]>([])
        /// Every begin so far.
        var all: [Int64] { begins.withLock { $0 } }
        /// The hook for ``LiveListeningTests/withStation(_:onRequest:_:)``.
        var observer: @Sendable (StationRequest) -> Void {
            { [begins] request in
                let parts = request.path.split(separator: "/")
                guard parts.count == 2, parts[0] == "live", parts[1].hasSuffix(".m3u8"),
                      let begin = request.parameter("begintime").flatMap({ Int64($0) }) else { return }
                begins.withLock { $0.append(begin) }
            }
        }
    }

    @Test("live playing events name the song heard, behind the edge after a seek back, at it again after live")
    func liveEventsFollowTheAudio() async throws {
        let opened = OpenedStreams()
        try await LiveListeningTests.withStation("mhz-live-client", onRequest: opened.observer) { station, base, data, home in
            let channel = try await Self.channel(base)
            let mhz = try BuiltMhz(["--live", channel, "--headless", "--audio-output", "null", "--server", base.absoluteString,
                                    "--data-dir", home.path("data").path], home: home.url)
            try await mhz.whileRunning { mhz in
                // At the edge: a song change, naming a song whose audio the moment holds. How
                // far behind is the player's own start-up and stalls, a wall clock's matter
                // on a busy machine: what is held here is that it agrees with the station.
                let first = try await mhz.waitFor("playing") { $0.fields["live"] as? Bool == true }
                #expect(first.event["sid"] != nil && first.event["channel"] == channel)
                let last = try await mhz.waitFor("playing", after: first.index + 1)
                let behind = try #require(last.event.number("behind"), "\(last.event.fields)")
                #expect(last.event.fields["live"] as? Bool == true && behind >= 0, "\(last.event.fields)")
                let heard = try await Self.heardSids(station, base, channel, behind: behind)
                #expect(heard.contains(last.event["sid"] ?? ""), "\(last.event.fields) not in \(heard)")
                let row = try await Self.aired(base, channel).first { $0.sid == last.event["sid"] }
                #expect(row?.title == last.event["title"])

                // Five seconds back (once the look-back holds them: the broadcast began with
                // this mhz): the moment heard before, on the station's programme, and after.
                try await waitUntil("ten seconds of look-back", within: .seconds(20)) {
                    let segments = station.liveHub.broadcast(channel)?.snapshot.segments ?? []
                    return (segments.last?.end ?? 0) - (segments.first?.start ?? Int64.max) >= 10_000
                }
                let asked = ContinuousClock.now
                let before = try await mhz.status(after: last.index) { $0["sid"] != nil && $0.number("position") != nil }
                let left = try await Self.moment(of: before.event, station, base, channel)
                let behindBefore = try #require(before.event.number("behind"), "\(before.event.fields)")
                // Commands are handled in order, each to its end: the status answer after the
                // seek comes once the stream is opened again, so the next song heard is the
                // seek's.
                mhz.send("seek -5")
                mhz.send("status")
                let sought = try await mhz.waitFor("status", after: before.index + 1)
                let back = try await mhz.waitFor("playing", after: sought.index)
                let behindBack = try #require(back.event.number("behind"), "\(back.event.fields)")
                let heardBack = try await Self.heardSids(station, base, channel, behind: behindBack)
                #expect(heardBack.contains(back.event["sid"] ?? ""), "\(back.event.fields) not in \(heardBack)")
                // Further behind by the five seconds, less what a segment's publishing moves
                // the edge each reading of it sees.
                #expect(behindBack - behindBefore >= 3, "after seek -5: \(behindBack), before \(behindBefore)")
                // The audio is five seconds before where it was (from the start of the segment
                // holding that moment: up to one more), moved on since by no more than the time
                // that passed; positions are tenths.
                let now = try await mhz.status(after: back.index) { $0["sid"] != nil && $0.number("position") != nil }
                let passed = Int64((ContinuousClock.now - asked) / .milliseconds(1))
                let moment = try await Self.moment(of: now.event, station, base, channel)
                #expect(moment >= left - 6_200 && moment <= left - 5_000 + passed + 200,
                        "heard \(moment), left \(left), \(passed) ms passed")

                // Back to the edge: the stream opened again from the station's join point as
                // it was when `live` was sent, or a later one, and the audio heard is from it.
                let join = try Self.edge(station, channel).join
                let streams = opened.all.count
                mhz.send("live")
                mhz.send("status")
                let tuned = try await mhz.waitFor("status", after: now.index + 1)
                let again = try await mhz.waitFor("playing", after: tuned.index)
                // The newest stream opened (the player may ask for a master playlist more than once).
                let reopened = opened.all.dropFirst(streams)
                #expect(reopened.last.map { $0 >= join } == true, "\(reopened), join \(join)")
                let behindAgain = try #require(again.event.number("behind"), "\(again.event.fields)")
                #expect(behindAgain < behindBack, "after live: \(behindAgain), five seconds back \(behindBack)")
                let heardAgain = try await Self.heardSids(station, base, channel, behind: behindAgain)
                #expect(heardAgain.contains(again.event["sid"] ?? ""), "\(again.event.fields) not in \(heardAgain)")
                let atEdge = try await mhz.status(after: again.index) { $0["sid"] != nil && $0.number("position") != nil }
                #expect(try await Self.moment(of: atEdge.event, station, base, channel) >= join - 200, "\(atEdge.event.fields), join \(join)")

                // Feedback on the song heard goes to the live channel's route, as this one
                // listener (its playlists and its votes carry the same listener id): a like, and a
                // skip that ends the song for everyone. The songs are seconds long: each word is
                // about a song heard between its sending and its answer.
                let likeSent = mhz.events.count
                mhz.send("like")
                let liked = try await mhz.waitFor("liked", after: atEdge.index)
                let heardLiking = Self.heard(from: likeSent, to: liked.index, in: mhz.events)
                #expect(heardLiking.contains(liked.event["sid"] ?? ""), "\(liked.event.fields) not in \(heardLiking)")
                let skipSent = mhz.events.count
                mhz.send("skip")
                let voted = try await mhz.waitFor("voted", after: liked.index)
                let heardSkipping = Self.heard(from: skipSent, to: voted.index, in: mhz.events)
                #expect(heardSkipping.contains(voted.event["sid"] ?? "") && voted.event["type"] == "s",
                        "\(voted.event.fields) not in \(heardSkipping)")
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
            }
        }
    }

    @Test("in the terminal UI the header says LIVE, how far behind after ←, LIVE again after e")
    func theScreenSaysLiveOrHowFarBehind() async throws {
        try await LiveListeningTests.withStation("mhz-live-tui") { station, base, _, home in
            let channel = try await Self.channel(base)
            let terminal = try Self.terminal(["--live", channel], base: base, home: home)
            try await terminal.waitForScreen(containing: "playing · LIVE")
            // ← is ten seconds back, once the look-back holds them.
            try await waitUntil("fourteen seconds of look-back", within: .seconds(25)) {
                let segments = station.liveHub.broadcast(channel)?.snapshot.segments ?? []
                return (segments.last?.end ?? 0) - (segments.first?.start ?? Int64.max) >= 14_000
            }
            // About ten seconds behind (the headless test holds the number to the station's
            // programme). A ← that comes while the stream is being opened again is refused
            // ("nothing playing"), as it would be for a person, who presses it again: so is it
            // here, only while the header still says LIVE, every 8 s.
            try terminal.send("Left")
            var pressed = ContinuousClock.now
            try await waitUntil("the header saying how far behind; screen:\n\(terminal.screen)", within: .seconds(40)) {
                let shown = terminal.screen
                if shown.contains("playing · LIVE"), ContinuousClock.now - pressed > .seconds(8) {
                    try terminal.send("Left")
                    pressed = .now
                }
                return shown.contains("playing · −00:")
            }
            try terminal.send("e")
            try await terminal.waitForScreen(containing: "playing · LIVE")
            try terminal.send("q")
            #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
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
        try await BuiltMhz(["--live", "1", "--headless", "--audio-output", "null", "--library", library,
                            "--data-dir", home.path("data").path], home: home.url).whileRunning { mhz in
            let playing = try await mhz.waitFor("playing")
            #expect(playing.event.fields["live"] as? Bool == true && playing.event.number("behind") != nil)
            #expect(["Red", "Green", "Blue"].contains(playing.event["title"] ?? ""), "\(playing.event.fields)")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
        }
    }
}
