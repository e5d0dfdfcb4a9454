import Foundation
import Settings
import Station
import Testing
@testable import mhz

/// The keys of `config.toml` that say how loud songs are played: `[station] loudness` and
/// `loudness_target` (how the station mhz serves levels), `[radio] loudness` (whether mhz
/// applies a station's gain), `[live] crossfade`; and what the station is given of them.
struct LoudnessSettingsTests {
    @Test("[station] loudness and loudness_target are read, and become the station's Leveling")
    func stationLoudness() throws {
        let defaults = try Config.parse("", path: "t.toml").station
        #expect(defaults.loudness == .track && defaults.loudnessTarget == -18)
        #expect(defaults.leveling == Leveling(basis: .track, target: -18))

        let album = try Config.parse("[station]\nloudness = \"album\"\nloudness_target = -14", path: "t.toml").station
        #expect(album.loudness == .album && album.loudnessTarget == -14)
        #expect(album.leveling == Leveling(basis: .album, target: -14))
        let off = try Config.parse("[station]\nloudness = \"off\"\nloudness_target = -23.5", path: "t.toml").station
        #expect(off.leveling == .off && off.leveling.basis == nil)

        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "\"loudness\" in [station] must be one of track, album, off")) {
            try Config.parse("[station]\nloudness = \"loud\"", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "\"loudness\" in [station] must be one of track, album, off")) {
            try Config.parse("[station]\nloudness = true", path: "t.toml")
        }
        for bad in ["-31", "-4.9", "0", "\"-18\"", "nan", "inf"] {
            #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                                   "\"loudness_target\" in [station] must be a number from -30 to -5"), "\(bad)") {
                try Config.parse("[station]\nloudness_target = \(bad)", path: "t.toml")
            }
        }
    }

    @Test("[radio] loudness is true unless the table says false")
    func radioLoudness() throws {
        #expect(try Config.parse("", path: "t.toml").radio.loudness == true)
        #expect(try Config.parse("[radio]\nloudness = false", path: "t.toml").radio == RadioSettings(loudness: false))
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "\"loudness\" in [radio] must be true or false")) {
            try Config.parse("[radio]\nloudness = \"yes\"", path: "t.toml")
        }
    }

    @Test("[live] crossfade is 3 s unless told, 0 to 10 s, and reaches the live configuration")
    func liveCrossfade() throws {
        let defaults = try Config.parse("", path: "t.toml").live
        #expect(defaults.crossfadeSeconds == 3 && defaults.stationConfiguration.crossfade == .seconds(3))
        let cut = try Config.parse("[live]\ncrossfade = \"0s\"", path: "t.toml").live
        #expect(cut.crossfadeSeconds == 0 && cut.stationConfiguration.crossfade == .zero)
        #expect(try Config.parse("[live]\ncrossfade = \"10s\"", path: "t.toml").live.stationConfiguration.crossfade == .seconds(10))
        for bad in ["\"11s\"", "\"1m\"", "3", "\"3\"", "\"-1s\""] {
            #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                                   "\"crossfade\" in [live] must be a length of time such as \"3s\" (\"0s\" for none), at most 10 seconds"),
                    "\(bad)") {
                try Config.parse("[live]\ncrossfade = \(bad)", path: "t.toml")
            }
        }
    }

    @Test("[station] metrics is false unless the table says true")
    func metrics() throws {
        #expect(try Config.parse("", path: "t.toml").station.metrics == false)
        #expect(try Config.parse("[station]\nmetrics = true", path: "t.toml").station.metrics == true)
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "\"metrics\" in [station] must be true or false")) {
            try Config.parse("[station]\nmetrics = 1", path: "t.toml")
        }
    }
}
