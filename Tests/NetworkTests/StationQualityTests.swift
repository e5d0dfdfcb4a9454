import Foundation
import RadioAPI
import Settings
import TestSupport
import Testing
@testable import mhz

/// `[station] quality`: what the built client asks a station for, exactly, and what mhz's
/// own station answers to it (the FLAC itself for `original`, an MP3 transcode for 64).
struct StationQualityTests {
    @Test func theTableIsReadAndABadValueIsOneLineNamingTheKeyAndTheAcceptedValues() throws {
        #expect(try Config.parse("", path: "t.toml").station.quality == .original)
        #expect(try Config.parse("[station]\nquality = 64", path: "t.toml").station.quality == .kbps(64))
        #expect(try Config.parse("[station]\nquality = \"192\"", path: "t.toml").station.quality == .kbps(192))
        #expect(try Config.parse("[station]\nquality = \"original\"", path: "t.toml").station.quality == .original)
        for bad in ["320", "\"flac\"", "true", "128.0", "\"Original\""] {
            #expect(throws: CLIError.configInvalid("t.toml", line: nil, "\"quality\" in [station] must be one of original, 64, 128, 192"),
                    "\(bad)") {
                try Config.parse("[station]\nquality = \(bad)", path: "t.toml")
            }
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "\"kbps\" is set as \"quality\" in [station]: one of original, 64, 128, 192")) {
            try Config.parse("kbps = 128", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "unknown key \"kbps\" in [station] (known: quality, loudness, loudness_target, metrics)")) {
            try Config.parse("[station]\nkbps = 128", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "[station] must be a table")) {
            try Config.parse("station = \"original\"", path: "t.toml")
        }
    }

    @Test func theBuiltClientSaysWhatIsWrongWithTheFileInOneLine() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-quality-bad")
        let file = home.path("bad.toml")
        try Data("[station]\nquality = 320\n".utf8).write(to: file)
        let run = try await BuiltMhz.run(["download", "--config", file.path, "--channel", "0", "--data-dir", home.path("data").path],
                                       home: home.url)
        #expect(run.status == 1)
        #expect(run.stderr == "mhz: config file \(file.path): \"quality\" in [station] must be one of original, 64, 128, 192"
            + " — fix it (see Config/config.example.toml)\n")
        #expect(run.stdout == "")
    }

    /// `mhz download --channel 0 --count 1` against a real `mhz serve` over a FLAC library:
    /// the list request's exact query, the link the station answered with (the media request
    /// that followed it), and the file that came of it.
    @Test func theRealStationLinksTheFLACForOriginalAndA64kTranscodeFor64() async throws {
        // Not levelled: a levelled transcode's name carries its gain, known only once the
        // station's analysis has measured the song (LoudnessServeTests).
        let station = try await ServedStation(songs: 1, config: "[station]\nloudness = \"off\"\n")
        let client = try TemporaryDirectory(prefix: "mhz-quality-client")
        let low = client.path("low.toml")
        try Data("[station]\nquality = 64\n".utf8).write(to: low)

        let original = try await BuiltMhz.run(["download", "--server", station.url.absoluteString, "--channel", "0", "--count", "1",
                                             "--json", "--data-dir", client.path("original").path], home: client.url)
        #expect(original.status == 0, "\(original.stderr)")
        let firstRequests = station.requests
        let lists = firstRequests.filter { $0.hasPrefix("/j/app/radio/people") }
        #expect(lists == ["/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&format=original"])
        let flac = try #require(firstRequests.first { $0.hasPrefix("/media/") })
        #expect(flac.hasSuffix(".flac") && !flac.contains("k.mp3"), "\(firstRequests)")
        #expect(Self.completed(original.stdout) == [client.path("original/downloads/Tone - Song 1.flac").path])

        let transcoded = try await BuiltMhz.run(["download", "--server", station.url.absoluteString, "--config", low.path,
                                               "--channel", "0", "--count", "1", "--json",
                                               "--data-dir", client.path("low").path], home: client.url)
        #expect(transcoded.status == 0, "\(transcoded.stderr)")
        let later = Array(station.requests.dropFirst(firstRequests.count))
        #expect(later.filter { $0.hasPrefix("/j/app/radio/people") }
            == ["/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&kbps=64"])
        let sid = String(flac.dropFirst("/media/".count).dropLast(".flac".count))
        #expect(later.filter { $0.hasPrefix("/media/") } == ["/media/\(sid)-64k.mp3"])
        #expect(Self.completed(transcoded.stdout) == [client.path("low/downloads/Tone - Song 1.mp3").path])
        #expect(try await station.stop() == 0)
    }

    /// The web family carries the quality too: `format=original` after its fixed
    /// parameters (with its usual `kbps=128`/`pb=128`), or `kbps`/`pb` of the rate asked.
    @Test func theWebFamilyAsksForTheOriginalOrTheRateOnItsV2Playlist() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-quality-web")
        let low = home.path("low.toml")
        try Data("api = \"web\"\n[station]\nquality = 64\n".utf8).write(to: low)
        for (name, arguments) in [("original", ["--api", "web"]), ("low", ["--config", low.path])] {
            let run = try await BuiltMhz.run(["download", "--server", server.baseURL.absoluteString, "--channel", "0", "--count", "1",
                                            "--json", "--data-dir", home.path(name).path] + arguments, home: home.url)
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(server.calls(to: "/j/v2/playlist").map(\.rawQuery) == [
            "channel=0&kbps=128&client=s%3Amainsite%7Cy%3A3.0&app_name=radio_website&version=100&type=n&pt=0.0&pb=128&from=mainsite&format=original",
            "channel=0&kbps=64&client=s%3Amainsite%7Cy%3A3.0&app_name=radio_website&version=100&type=n&pt=0.0&pb=64&from=mainsite",
        ])
    }

    /// The paths of the downloads `mhz download --json` reported completed.
    static func completed(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "download", event["state"] as? String == "completed" else { return nil }
            return event["path"] as? String
        }
    }
}
