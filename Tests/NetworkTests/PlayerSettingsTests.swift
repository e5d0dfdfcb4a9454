import Foundation
import HTTP
import Settings
import Testing
@testable import mhz

/// The settings the composition root hands the player: `long_item_minutes`, and the
/// User-Agent (and nothing else) for media requests.
struct PlayerSettingsTests {
    @Test(arguments: [("long_item_minutes = 10", 10.0), ("long_item_minutes = 2.5", 2.5), ("volume = 50", nil)])
    func longItemMinutesParses(text: String, minutes: Double?) throws {
        #expect(try Config.parse(text, path: "c.toml").longItemMinutes == minutes)
    }

    @Test(arguments: ["long_item_minutes = 0", "long_item_minutes = -5", "long_item_minutes = \"ten\"",
                      "long_item_minutes = true"])
    func aBadLongItemMinutesNamesTheKey(text: String) {
        #expect(throws: CLIError.configInvalid("c.toml", line: nil, "\"long_item_minutes\" must be a positive number")) {
            try Config.parse(text, path: "c.toml")
        }
    }

    @Test func thePlayerSendsTheConfiguredUserAgentAndNoHeaders() throws {
        let config = try Config.parse("user_agent = \"radio/9\"\n", path: "c.toml")
        let options = PlayCommand.playerOptions(audioOutput: "null", video: false, volume: 70,
                                                http: RadioRuntime.httpConfiguration(config))
        #expect(options.userAgent == "radio/9")
        #expect(options.httpHeaders.isEmpty, "no cookies: they would reach every media host")
        #expect(options.statusProbe != nil)
        #expect(options.initialVolume == 70)
        #expect(options.audioOutput == "null")
        // Without a setting, the API's own default.
        let plain = PlayCommand.playerOptions(audioOutput: nil, video: false, volume: 100,
                                              http: RadioRuntime.httpConfiguration(Config()))
        #expect(plain.userAgent == HTTPConfiguration().userAgent)
    }

    @Test func streamTimeoutIsThePlayersNetworkTimeout() throws {
        let config = try Config.parse("stream_timeout = 2.5\n", path: "c.toml")
        #expect(config.streamTimeout == 2.5)
        let options = PlayCommand.playerOptions(audioOutput: "null", video: false, volume: 100,
                                                http: RadioRuntime.httpConfiguration(config),
                                                streamTimeout: config.streamTimeout)
        #expect(options.networkTimeout == 2.5)
        #expect(PlayCommand.playerOptions(audioOutput: nil, video: false, volume: 100,
                                          http: HTTPConfiguration()).networkTimeout == 10, "the player's own default")
        for text in ["stream_timeout = 0", "stream_timeout = 601", "stream_timeout = \"5\""] {
            #expect(throws: CLIError.configInvalid("c.toml", line: nil,
                                                   "\"stream_timeout\" must be a number of seconds from 1 to 600")) {
                try Config.parse(text, path: "c.toml")
            }
        }
    }
}
