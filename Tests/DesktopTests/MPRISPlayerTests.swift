@testable import Desktop
import Foundation
import Radio
import Testing
import TestSupport

/// The MPRIS player on a private bus, seen and driven by the real `playerctl` and watched
/// with `dbus-monitor`.
@Suite(.serialized) struct MPRISPlayerTests {
    static let song = Track(sid: "s-42/x", title: "Autumn Leaves", artist: "Cannonball Adderley",
                            album: "Somethin' Else", length: 660, url: "https://example.com/42.mp3")
    static let trackID = "/org/mhz/track/s_2d42_2fx"

    /// A private bus with a player on it; everything is ended whatever the body does.
    struct Fixture {
        let daemon: PrivateBus
        let bus: DesktopBus
        let player: MPRISPlayer
        let commands: Locked<[RadioCommand]>

        /// Publishes `snapshot` and waits until the bus thread has announced it.
        func show(_ snapshot: RadioSnapshot, cover: URL? = nil) {
            player.update(snapshot, coverFile: cover)
            #expect(bus.drain())
        }

        /// `playerctl -p mhz ARGUMENTS`.
        func playerctl(_ arguments: String...) async throws -> String {
            try await BusTool.playerctl(arguments, bus: daemon)
        }

        /// Expects `playerctl -p mhz ARGUMENTS` to print exactly `output`.
        func expect(_ arguments: [String], prints output: String,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let printed = try await BusTool.playerctl(arguments, bus: daemon)
            #expect(printed == output, "playerctl \(arguments.joined(separator: " "))", sourceLocation: sourceLocation)
        }

        /// Waits until `count` commands have arrived; returns them.
        func waitForCommands(_ count: Int) async throws -> [RadioCommand] {
            do {
                return try await waitForValue("\(count) commands", within: .seconds(20)) {
                    let received = commands.value
                    return received.count >= count ? received : nil
                }
            } catch TestSupportError.timeout {
                throw TestSupportError.timeout("\(commands.value.count) of \(count) commands: \(commands.value)")
            }
        }
    }

    func withPlayer(_ body: (Fixture) async throws -> Void) async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let bus = try DesktopBus.open(address: daemon.address, timeout: .seconds(20))
        defer { bus.close() }
        let commands = Locked<[RadioCommand]>([])
        let player = try MPRISPlayer(bus: bus, timeout: .seconds(20)) { command in
            commands.withLock { $0.append(command) }
        }
        #expect(player.busName == "org.mpris.MediaPlayer2.mhz")
        try await body(Fixture(daemon: daemon, bus: bus, player: player, commands: commands))
    }

    @Test func playerctlShowsTheSongsMetadata() async throws {
        try await withPlayer { fixture in
            let cover = URL(fileURLWithPath: "/tmp/mhz covers/42.jpg")
            fixture.show(RadioSnapshot(track: Self.song, position: 12.5, duration: 661.5), cover: cover)
            let metadata = try await fixture.playerctl(
                "metadata", "--format",
                "{{mpris:trackid}}|{{xesam:title}}|{{xesam:artist}}|{{xesam:album}}|{{mpris:length}}|{{mpris:artUrl}}")
            // playerctl prints an object path as GVariant text does, quoted.
            #expect(metadata == "'\(Self.trackID)'|Autumn Leaves|Cannonball Adderley|Somethin' Else|661500000|"
                    + "file:///tmp/mhz%20covers/42.jpg")
            try await fixture.expect(["metadata", "xesam:userRating"], prints: "0.0")
            try await fixture.expect(["volume"], prints: "1.000000")
            // Position as published, read with a plain Get (playerctl adds the time since it
            // read it while a song plays).
            let (position, status) = try await BusTool.run("/usr/bin/dbus-send", [
                "--session", "--print-reply=literal", "--dest=org.mpris.MediaPlayer2.mhz", "/org/mpris/MediaPlayer2",
                "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:Position",
            ], bus: fixture.daemon)
            #expect(status == 0)
            #expect(position == "variant       int64 12500000")
            fixture.show(RadioSnapshot(track: Self.song, position: 12.5, duration: 661.5, paused: true), cover: cover)
            try await fixture.expect(["position"], prints: "12.500000")
        }
    }

    @Test func introspectionSaysWhatTheSpecSays() async throws {
        try await withPlayer { fixture in
            let (xml, status) = try await BusTool.run("/usr/bin/dbus-send", [
                "--session", "--print-reply=literal", "--dest=org.mpris.MediaPlayer2.mhz", "/org/mpris/MediaPlayer2",
                "org.freedesktop.DBus.Introspectable.Introspect",
            ], bus: fixture.daemon)
            #expect(status == 0)
            let lines = xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            func property(_ name: String) -> [String] {
                guard let start = lines.firstIndex(where: { $0.hasPrefix("<property name=\"\(name)\"") }) else { return [] }
                return Array(lines[start..<min(start + 2, lines.count)])
            }
            #expect(property("Position") == [
                "<property name=\"Position\" type=\"x\" access=\"read\">",
                "<annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>",
            ])
            #expect(property("Volume") == ["<property name=\"Volume\" type=\"d\" access=\"readwrite\">",
                                           "</property>"])
            #expect(property("Identity") == [
                "<property name=\"Identity\" type=\"s\" access=\"read\">",
                "<annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"const\"/>",
            ])
            #expect(lines.contains("<signal name=\"Seeked\">"))
            #expect(lines.contains("<interface name=\"org.mpris.MediaPlayer2\">"))
        }
    }

    @Test func playerctlCommandsBecomeRadioCommands() async throws {
        try await withPlayer { fixture in
            fixture.show(RadioSnapshot(track: Self.song, duration: 300))
            let steps: [([String], RadioCommand)] = [
                (["play-pause"], .toggle), (["next"], .skip), (["pause"], .pause), (["play"], .resume),
                (["stop"], .pause), (["volume", "0.4"], .volume(40)), (["position", "30"], .seek(.absolute(30))),
                (["position", "10+"], .seek(.relative(10))),
            ]
            for (index, (arguments, command)) in steps.enumerated() {
                _ = try await BusTool.playerctl(arguments, bus: fixture.daemon)
                let received = try await fixture.waitForCommands(index + 1)
                #expect(received.last == command, "playerctl \(arguments.joined(separator: " "))")
            }
            // A radio opens no URIs: the call fails and sends nothing.
            let (_, status) = try await BusTool.run("/usr/bin/playerctl", ["-p", "mhz", "open", "file:///tmp/x.mp3"],
                                                    bus: fixture.daemon)
            #expect(status != 0)
            let openUri = try await BusTool.runFully(
                "/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mhz",
                                       "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.OpenUri",
                                       "string:file:///tmp/x.mp3"], bus: fixture.daemon)
            #expect(openUri.status == 1)
            #expect(openUri.errors.hasPrefix("Error org.freedesktop.DBus.Error.NotSupported"))
            let (_, quit) = try await BusTool.run(
                "/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mhz",
                                       "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"], bus: fixture.daemon)
            #expect(quit == 0)
            let all = try await fixture.waitForCommands(steps.count + 1)
            #expect(all.count == steps.count + 1)
            #expect(all.last == .quit)
        }
    }

    @Test func statusFollowsEverySnapshot() async throws {
        try await withPlayer { fixture in
            try await fixture.expect(["status"], prints: "Stopped")
            fixture.show(RadioSnapshot(track: Self.song))
            try await fixture.expect(["status"], prints: "Playing")
            fixture.show(RadioSnapshot(track: Self.song, paused: true))
            try await fixture.expect(["status"], prints: "Paused")
            fixture.show(RadioSnapshot(track: Self.song, paused: false, volume: 35))
            try await fixture.expect(["status"], prints: "Playing")
            try await fixture.expect(["volume"], prints: "0.350000")
            fixture.show(RadioSnapshot())
            try await fixture.expect(["status"], prints: "Stopped")
        }
    }

    @Test func aLikeALateCoverAPauseAndASeekAreAnnounced() async throws {
        try await withPlayer { fixture in
            fixture.show(RadioSnapshot(track: Self.song, position: 5, duration: 300))
            let monitor = try BusTool("/usr/bin/dbus-monitor", [
                "--address", fixture.daemon.address, "type='signal',path='/org/mpris/MediaPlayer2'",
            ], bus: fixture.daemon)
            defer { monitor.stop() }
            // dbus-monitor prints the NameLost of its own name once it is a monitor.
            try await monitor.waitFor("NameLost") { $0.contains("member=NameLost") }
            var liked = Self.song
            liked.liked = true
            fixture.show(RadioSnapshot(track: liked, position: 5, duration: 300))
            fixture.show(RadioSnapshot(track: liked, position: 5, duration: 300),
                         cover: URL(fileURLWithPath: "/tmp/covers/42.jpg"))
            fixture.show(RadioSnapshot(track: liked, position: 5, duration: 300, paused: true),
                         cover: URL(fileURLWithPath: "/tmp/covers/42.jpg"))
            fixture.show(RadioSnapshot(track: liked, position: 200, duration: 300, paused: true),
                         cover: URL(fileURLWithPath: "/tmp/covers/42.jpg"))
            try await monitor.waitFor("four signals") { DBusMonitorOutput.signals(in: $0).count >= 4 }
            // Playing again: its signal comes after any the four changes made.
            fixture.show(RadioSnapshot(track: liked, position: 200, duration: 300),
                         cover: URL(fileURLWithPath: "/tmp/covers/42.jpg"))
            try await monitor.waitFor("the fifth signal") { DBusMonitorOutput.signals(in: $0).count >= 5 }
            let signals = DBusMonitorOutput.signals(in: monitor.text)
            try #require(signals.count == 5, "\(monitor.text)")
            #expect(signals.map(\.member) == ["PropertiesChanged", "PropertiesChanged", "PropertiesChanged", "Seeked",
                                               "PropertiesChanged"])
            #expect(signals[4].changedProperties == ["PlaybackStatus"])
            #expect(signals[4].body.contains("string \"Playing\""))
            #expect(signals[0].changedProperties == ["Metadata"])
            #expect(signals[0].body.contains("string \"xesam:userRating\"\n                  variant                      double 1"))
            #expect(!signals[0].body.contains("mpris:artUrl"))
            #expect(signals[1].changedProperties == ["Metadata"])
            #expect(signals[1].body.contains("string \"file:///tmp/covers/42.jpg\""))
            #expect(signals[2].changedProperties == ["PlaybackStatus"])
            #expect(signals[2].body.contains("string \"Paused\""))
            #expect(signals[3].body.trimmingCharacters(in: .whitespacesAndNewlines) == "int64 200000000")
        }
    }

    @Test func playerctlFollowingTheMetadataSeesALikeAndALateCover() async throws {
        try await withPlayer { fixture in
            fixture.show(RadioSnapshot(track: Self.song, duration: 300))
            let follower = try BusTool("/usr/bin/playerctl", [
                "-p", "mhz", "--follow", "metadata", "--format", "{{xesam:userRating}} {{mpris:artUrl}}",
            ], bus: fixture.daemon)
            defer { follower.stop() }
            try await follower.waitFor("the first line") { $0 == "0.0 \n" }
            var liked = Self.song
            liked.liked = true
            fixture.show(RadioSnapshot(track: liked, duration: 300))
            try await follower.waitFor("the like") { $0 == "0.0 \n1.0 \n" }
            fixture.show(RadioSnapshot(track: liked, duration: 300), cover: URL(fileURLWithPath: "/tmp/covers/42.jpg"))
            try await follower.waitFor("the cover") { $0 == "0.0 \n1.0 \n1.0 file:///tmp/covers/42.jpg\n" }
        }
    }

    @Test func afterTheBusClosesEverythingIsQuietlyDropped() async throws {
        let daemon = try await PrivateBus()
        defer { daemon.stop() }
        let bus = try DesktopBus.open(address: daemon.address, timeout: .seconds(20))
        let player = try MPRISPlayer(bus: bus, timeout: .seconds(20)) { _ in }
        let notifier = SongNotifier(bus: bus)
        bus.close()
        player.update(RadioSnapshot(track: Self.song), coverFile: nil)
        notifier.notify(Self.song, coverFile: nil)
        #expect(!notifier.isWaitingForReply)
        #expect(throws: DesktopError.closed) { try MPRISPlayer(bus: bus) { _ in } }
        // The name went with the connection.
        let (players, status) = try await BusTool.run("/usr/bin/playerctl", ["-l"], bus: daemon)
        #expect(status == 0)
        #expect(players == "")
    }

    @Test func aSecondMhzTakesAnInstanceName() async throws {
        try await withPlayer { fixture in
            let other = try DesktopBus.open(address: fixture.daemon.address, timeout: .seconds(20))
            defer { other.close() }
            let second = try MPRISPlayer(bus: other, timeout: .seconds(20)) { _ in }
            #expect(second.busName == "org.mpris.MediaPlayer2.mhz.instance\(getpid())")
            let (players, status) = try await BusTool.run("/usr/bin/playerctl", ["-l"], bus: fixture.daemon)
            #expect(status == 0)
            #expect(players.split(separator: "\n").sorted() == ["mhz", "mhz.instance\(getpid())"])
        }
    }
}
