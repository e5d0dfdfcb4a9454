import Foundation
import TestSupport
import Testing

/// The built mhz on a private session bus, seen and driven by the real `playerctl`, its
/// notifications seen by `dbus-monitor`; and without a bus, one line in the log.
@Suite(.serialized)
struct DesktopIntegrationTests {
    @Test func playerctlSeesAndDrivesAHeadlessMhz() async throws {
        let bus = try await PrivateBus()
        defer { bus.stop() }
        let monitor = try BusTool("/usr/bin/dbus-monitor", ["interface='org.freedesktop.Notifications'"], bus: bus)
        defer { monitor.stop() }
        try await HeadlessRadioTests.LiveStation.with { station in
            let home = try TemporaryDirectory(prefix: "mhz-mpris")
            let data = home.path("data")
            var environment = ["XDG_RUNTIME_DIR": home.url.path, "XDG_CONFIG_HOME": home.path("config").path,
                               "HOME": home.url.path]
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            func playerctl(_ arguments: String...) async throws -> String { try await BusTool.playerctl(arguments, bus: bus) }
            try await BuiltMhz(["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                                "--data-dir", data.path, "--channel", "0"], environment: environment).whileRunning { mhz in
                let first = try await mhz.waitFor("playing")
                let title = try #require(first.event["title"]), sid = try #require(first.event["sid"])

                // The bus is opened beside the first song: wait until MPRIS shows it.
                try await waitUntil("MPRIS showing \(title)", within: .seconds(20)) {
                    let shown = try? await playerctl("metadata", "xesam:title")
                    let art = try? await playerctl("metadata", "mpris:artUrl")
                    return shown == title && art?.isEmpty == false
                }
                // playerctl prints an object path as GVariant text does, quoted.
                #expect(try await playerctl("metadata", "mpris:trackid") == "'/org/mhz/track/\(sid)'")
                #expect(try await playerctl("metadata", "xesam:artist") == first.event["artist"])
                #expect(try await playerctl("metadata", "xesam:album") == first.event["album"])
                #expect(try await playerctl("status") == "Playing")
                // The station's cover (an HTTP URL) is a file in the data directory, a real PNG.
                let art = try #require(URL(string: try await playerctl("metadata", "mpris:artUrl")))
                #expect(art.isFileURL && art.path.hasPrefix(data.path + "/covers/"), "\(art)")
                let png = try Data(contentsOf: art).prefix(4)
                #expect(png == Data([0x89, 0x50, 0x4E, 0x47]))

                // play-pause twice, next, volume: each the radio command, each reflected back.
                _ = try await playerctl("play-pause")
                let paused = try await mhz.waitFor("paused", after: first.index)
                #expect(try await playerctl("status") == "Paused")
                _ = try await playerctl("play-pause")
                let resumed = try await mhz.waitFor("resumed", after: paused.index)
                #expect(try await playerctl("status") == "Playing")
                _ = try await playerctl("next")
                let skipped = try await mhz.waitFor("skipped", after: resumed.index)
                #expect(skipped.event["sid"] == sid)
                let second = try await mhz.waitFor("playing", after: skipped.index)
                let report = try await station.waitForReport { $0.parameter("type") == "s" }
                #expect(report.parameter("sid") == sid)
                _ = try await playerctl("volume", "0.4")
                // playerctl returns once the property is set; the radio takes the command from
                // the bus thread after that, so a status asked at once may come first.
                let status = try await mhz.status(after: second.index) { $0.number("volume") == 40 }
                #expect(status.event.number("volume") == 40)
                #expect(try await playerctl("volume") == "0.400000")
                let secondTitle = try #require(second.event["title"])
                #expect(try await playerctl("metadata", "xesam:title") == secondTitle)

                // Each song's notification: summary the title, body artist and album, the cover.
                try await monitor.waitFor("the second song's notification") { $0.contains("string \"\(secondTitle)\"") }
                let notify = monitor.text.components(separatedBy: "member=Notify").dropFirst()
                // The first song's notification, or its replacement once a late cover came, shows it.
                let firstCall = try #require(notify.last { $0.contains("string \"\(title)\"") })
                #expect(firstCall.contains("string \"\(first.event["artist"] ?? "")\n\(first.event["album"] ?? "")\""))
                #expect(firstCall.contains("string \"image-path\""))
                #expect(notify.filter { $0.contains("string \"\(title)\"") }.count <= 2)

                mhz.send("quit")
                #expect(try await mhz.exit() == 0)
            }
        }
    }

    @Test func notifyFalseSendsNoNotificationButKeepsMPRIS() async throws {
        let bus = try await PrivateBus()
        defer { bus.stop() }
        let monitor = try BusTool("/usr/bin/dbus-monitor", ["interface='org.freedesktop.Notifications'"], bus: bus)
        defer { monitor.stop() }
        try await HeadlessRadioTests.LiveStation.with { station in
            let home = try TemporaryDirectory(prefix: "mhz-nonotify")
            try "notify = false\n".write(to: home.path("config.toml"), atomically: true, encoding: .utf8)
            try await BuiltMhz(["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                                "--data-dir", home.path("data").path, "--config", home.path("config.toml").path],
                               environment: ["XDG_RUNTIME_DIR": home.url.path, "HOME": home.url.path,
                                             "DBUS_SESSION_BUS_ADDRESS": bus.address]).whileRunning { mhz in
                let first = try await mhz.waitFor("playing")
                let title = try #require(first.event["title"])
                mhz.send("skip")
                let second = try await mhz.waitFor("playing", after: first.index + 1)
                try await waitUntil("MPRIS showing the second song", within: .seconds(20)) {
                    (try? await BusTool.playerctl(["metadata", "xesam:title"], bus: bus)) == second.event["title"]
                }
                mhz.send("quit")
                #expect(try await mhz.exit() == 0)
                // Two songs started, MPRIS followed them, and no Notify was ever sent.
                #expect(!monitor.text.contains("member=Notify"), "\(monitor.text)")
                #expect(!title.isEmpty)
            }
        }
    }

    @Test func withoutASessionBusMhzPlaysAndSaysSoOnceInTheLog() async throws {
        try await HeadlessRadioTests.LiveStation.with { station in
            let home = try TemporaryDirectory(prefix: "mhz-nobus")
            let data = home.path("data")
            // A runtime directory with no bus socket, and no bus address (empty counts as none,
            // and wins over one the test runner may have).
            let environment = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": home.url.path, "HOME": home.url.path]
            try await BuiltMhz(["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                                "--data-dir", data.path], environment: environment).whileRunning { mhz in
                let first = try await mhz.waitFor("playing")
                mhz.send("skip")
                _ = try await mhz.waitFor("playing", after: first.index + 1)
                mhz.send("quit")
                #expect(try await mhz.exit() == 0)
                #expect(mhz.stderr.isEmpty)
                let log = try String(contentsOf: data.appendingPathComponent("mhz.log"), encoding: .utf8)
                let lines = log.split(separator: "\n").filter { $0.contains("no desktop integration") }
                #expect(lines.count == 1)
                #expect(lines.first?.hasSuffix("no desktop integration (MPRIS, notifications): no session D-Bus "
                    + "(DBUS_SESSION_BUS_ADDRESS unset and none at $XDG_RUNTIME_DIR/bus)") == true, "\(lines)")
            }
        }
    }
}
