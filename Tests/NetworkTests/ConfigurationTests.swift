import Foundation
import HTTP
import HLSPlaylist
import RadioAPI
import Settings
import Testing
@testable import mhz

/// The server profiles in `Config/` and the network keys of `config.toml`.
struct ConfigurationTests {
    static let configDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config")

    func profile(_ name: String) throws -> (config: Config, server: URL?, family: APIFamily) {
        let config = try Config.load(from: Self.configDirectory.appendingPathComponent(name), explicit: true)
        let options = try GlobalOptions.parse([])
        let resolved = try RadioRuntime.server(options: options, config: config)
        return (config, resolved.url, resolved.family)
    }

    @Test func theThreeServerProfilesParseAndResolve() throws {
        let app = try profile("douban-app.toml")
        #expect(app.server?.absoluteString == "https://www.douban.com" && app.family == .app)
        #expect(app.config.appName == "radio_android")
        let web = try profile("douban-web.toml")
        #expect(web.server?.absoluteString == "https://douban.fm" && web.family == .web)
        #expect(web.config.station.quality == .kbps(128))
        let local = try profile("local.toml")
        #expect(local.server?.absoluteString == "http://127.0.0.1:7650" && local.family == .app)
        // The example documents every key and stays valid (everything is commented out).
        #expect(try Config.load(from: Self.configDirectory.appendingPathComponent("config.example.toml"), explicit: true)
            .server == nil)
    }

    @Test func networkKeysReachTheHTTPConfiguration() throws {
        let config = try Config.parse("""
            proxy = "socks5h://127.0.0.1:1080"
            verify_tls = false
            timeout = 30
            user_agent = "radio/1"
            app_name = "radio_desktop_mac"
            """, path: "t.toml")
        let http = RadioRuntime.httpConfiguration(config)
        #expect(http.proxy == "socks5h://127.0.0.1:1080")
        #expect(http.verifyTLS == false)
        #expect(http.totalTimeout == 30)
        #expect(http.userAgent == "radio/1")
        #expect(RadioRuntime.httpConfiguration(Config()).verifyTLS, "on unless the config turns it off")
        #expect(RadioRuntime.httpConfiguration(Config()).proxy == nil, "nil: libcurl reads the environment")
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "\"timeout\" must be a number of seconds from 1 to 600")) {
            try Config.parse("timeout = 0", path: "t.toml")
        }
    }

    @Test func theDesktopKeysAndTheHooksTableAreReadAndChecked() throws {
        let config = try Config.parse("notify = false\nmpris = false\n[hooks]\nevent = \"~/bin/ev\"\ntimeout = 2.5\n",
                                      path: "t.toml")
        #expect(!config.notify && !config.mpris)
        #expect(config.hooks == HookSettings(event: NSHomeDirectory() + "/bin/ev", timeout: 2.5))
        let defaults = try Config.parse("", path: "t.toml")
        #expect(defaults.notify && defaults.mpris && defaults.hooks == HookSettings(event: nil, timeout: 10))
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "\"notify\" must be true or false")) {
            try Config.parse("notify = \"no\"", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "[hooks] timeout must be a number of seconds from 0 to 3600")) {
            try Config.parse("[hooks]\ntimeout = 0", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "unknown key \"command\" in [hooks] (known: event, timeout)")) {
            try Config.parse("[hooks]\ncommand = \"x\"", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "[hooks] event must be the path of a program, e.g. \"~/bin/mhz-event\"")) {
            try Config.parse("[hooks]\nevent = \"\"", path: "t.toml")
        }
    }

    /// A table where none of its name belongs is called a table, with the tables that do
    /// belong there; a key is still a key.
    @Test func anUnknownTableIsCalledATableNotAKey() throws {
        #expect(throws: CLIError.configInvalid(
            "t.toml", line: nil, "unknown table [colours] (known: keys, downloads, hooks, station, radio, scrobble, live)")) {
            try Config.parse("volume = 50\n[colours]\nred = 1\n", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid(
            "t.toml", line: nil, "unknown table [plugins] (known: keys, downloads, hooks, station, radio, scrobble, live)")) {
            try Config.parse("[[plugins]]\nname = \"x\"\n", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "unknown table [station.extra]: [station] holds no tables, only keys (quality, loudness, loudness_target, metrics)")) {
            try Config.parse("[station.extra]\nquality = 128\n", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "unknown table [hooks.more]: [hooks] holds no tables, only keys (event, timeout)")) {
            try Config.parse("[hooks]\nmore = { event = \"x\" }\n", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil, "unknown key \"command\" in [hooks] (known: event, timeout)")) {
            try Config.parse("[hooks]\ncommand = [\"x\"]", path: "t.toml")
        }
    }

    /// Inputs `script/fuzz config` found crashing the parser, kept in `Fixtures/fuzz`: a
    /// table header that begins with a control character, a date-time whose `T` is followed
    /// by `)`, a date-time cut by a byte-order mark, an array closed by `}`, and a blank
    /// then a digit after `1979-e0-5l` or before no time. toml++ 3.4 (under TOMLKit) asserts on all five, an
    /// abort, so mhz refuses them before it, naming the line; the same text in a string or
    /// a comment still reads.
    @Test func tomlThatAbortsTOMLPlusPlusIsRefusedNotAnAbort() throws {
        func found(_ name: String) throws -> String {
            let url = try #require(Bundle.module.url(forResource: name, withExtension: "toml", subdirectory: "Fixtures/fuzz"))
            return String(decoding: try Data(contentsOf: url), as: UTF8.self)
        }
        let header = "a table header must begin with a name: a letter, digit, _, - or a quote"
        let dateTime = "a date-time must have a time after its T, e.g. 1979-05-27T07:32:00"
        #expect(throws: CLIError.configInvalid("t.toml", line: 2, header)) {
            try Config.parse(try found("table-header-control-character"), path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: 1, dateTime)) {
            try Config.parse(try found("date-time-without-time"), path: "t.toml")
        }
        let beyondASCII = "only strings and comments may hold characters beyond ASCII: quote the value"
        // Refused first for the blank and the digit that make no time, before the mark.
        #expect(throws: CLIError.configInvalid("t.toml", line: 1,
                                               "only a date may be followed by a blank and a time, e.g. 1979-05-27 07:32:00")) {
            try Config.parse(try found("date-time-then-byte-order-mark"), path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: 1, beyondASCII)) {
            try Config.parse("channel = 1879-06-21 07:00\u{FEFF}", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: 1, "a } must close an inline table's {")) {
            try Config.parse(try found("array-closed-by-brace"), path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: 3, "a } must close an inline table's {")) {
            try Config.parse("a = {b = [1]}\nc = [\n  2, }]", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: 2,
                                               "only a date may be followed by a blank and a time, e.g. 1979-05-27 07:32:00")) {
            try Config.parse(try found("blank-digit-after-no-date"), path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: 1,
                                               "only a date may be followed by a blank and a time, e.g. 1979-05-27 07:32:00")) {
            try Config.parse(try found("date-blank-digit-not-a-time"), path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: 2, beyondASCII)) {
            try Config.parse("# 私人兆赫\nchannel = 私人", path: "t.toml")
        }
        #expect(try Config.parse("\u{FEFF}channel = \"私人\" # 兆赫", path: "t.toml").channel == "私人")
        for (text, line, problem) in [("[=]", 1, header), ("a = 1\n[#]", 2, header), ("[[ ,]]", 1, header),
                                      ("[[ [a]]", 1, header), ("[\r\n", 1, header), ("x = 1\r\n  [ \u{7F}]", 2, header),
                                      ("a = \"\"\"\nx\n\"\"\"\nb = [1979-05-27tx:1]", 4, dateTime)] {
            #expect(throws: CLIError.configInvalid("t.toml", line: line, problem), "\(text)") {
                try Config.parse(text, path: "t.toml")
            }
        }
        // Headers that begin with a name, a quote or blanks, arrays of arrays, and the same
        // text in strings and comments still read.
        let config = try Config.parse("""
            [ downloads ]
            liked = true
            ["hooks"]
            timeout = 2
            \t[ 'keys' ]
            skip = "n"
            "volume 90" = \"\"\"
            [=] 1979-05-27Tx:1\"\"\" # [#] 1979-05-27T)
            """, path: "t.toml")
        #expect(config.downloads.liked && config.hooks.timeout == 2)
        #expect(config.keys == ["skip": "n", "volume 90": "[=] 1979-05-27Tx:1"])
        #expect(Config.abortingTOML(in: "a = [\n  [+1],\n  [\n    1\n  ],\n]\nb = 1979-05-27T07:32:00Z\n") == nil)
        #expect(Config.abortingTOML(in: "a = {b = 1}\nc = [{d = [1]}, {}]\n[e]\nf = \"}\" # }\n") == nil)
        #expect(Config.abortingTOML(in: "a = 1979-05-27 07:32:00\nb = [1 , 2]\nc . d = 3 # 4 5\n") == nil)
    }

    @Test func theControlSocketIsOnePerDataDirectoryUnderTheRuntimeDirectory() throws {
        let home = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000"]
        let standard = Paths(options: try GlobalOptions.parse([]), environment: home)
        #expect(standard.controlSocket.path == "/run/user/1000/mhz/mhz.sock")
        let other = Paths(options: try GlobalOptions.parse(["--data-dir", "/data/a"]), environment: home)
        let another = Paths(options: try GlobalOptions.parse(["--data-dir", "/data/b"]), environment: home)
        #expect(other.controlSocket.path.hasPrefix("/run/user/1000/mhz/mhz-"))
        #expect(other.controlSocket.path.count == "/run/user/1000/mhz/mhz-".count + 16 + ".sock".count)
        #expect(other.controlSocket != another.controlSocket)
        #expect(Paths(options: try GlobalOptions.parse(["--data-dir", "/data/a/"]), environment: home).controlSocket
            == other.controlSocket)
        // No runtime directory (cron, a server): the data directory holds it.
        let bare = Paths(options: try GlobalOptions.parse(["--data-dir", "/data/a"]), environment: ["HOME": "/home/u"])
        #expect(bare.controlSocket.path == "/data/a/mhz.sock")
        // Too long for sun_path: /tmp/mhz-<uid>/.
        let deep = "/d/" + String(repeating: "x", count: 120)
        let long = Paths(options: try GlobalOptions.parse(["--data-dir", deep]), environment: ["HOME": "/home/u"])
        #expect(long.controlSocket.path.hasPrefix("/tmp/mhz-\(getuid())/"))
        #expect(long.controlSocket.path.utf8.count <= Paths.maxSocketPathBytes)
    }

    @Test func theLiveTableIsReadAndChecked() throws {
        let config = try Config.parse("[live]\nalways = [1, \"4\"]\nlookback = \"1h30m\"", path: "t.toml")
        #expect(config.live == LiveSettings(always: ["1", "4"], lookbackSeconds: 5400))
        #expect(try Config.parse("", path: "t.toml").live == LiveSettings(always: [], lookbackSeconds: 7200))
        #expect(LiveSettings.seconds("45s") == 45 && LiveSettings.seconds("2h") == 7200 && LiveSettings.seconds("90m") == 5400)
        for bad in ["2", "h", "", "2 h", "-1h", "2d"] { #expect(LiveSettings.seconds(bad) == nil, "\(bad)") }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "\"lookback\" in [live] must be a length of time such as \"2h\", \"90m\" or \"45s\", at most 168 hours")) {
            try Config.parse("[live]\nlookback = \"8d\"", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "\"always\" in [live] must be a list of channel ids, e.g. [1, 4]")) {
            try Config.parse("[live]\nalways = 1", path: "t.toml")
        }
        #expect(throws: CLIError.self) { try Config.parse("[live]\nkeep = 1", path: "t.toml") }
    }

    @Test func theDownloadsTableIsReadAndCheckedKeyByKey() throws {
        let config = try Config.parse("""
            volume = 50
            [downloads]
            dir = "~/Music/offline"
            max_concurrent = 5
            liked = true
            quality = 192
            stall_timeout = 12
            segment_concurrency = 6
            """, path: "t.toml")
        #expect(config.downloads == DownloadSettings(directory: "~/Music/offline", maxConcurrent: 5, liked: true,
                                                     quality: .kbps(192), stallTimeout: 12, segmentConcurrency: 6))
        #expect(try Config.parse("[downloads]\nquality = \"worst\"", path: "t.toml").downloads.quality == .worst)
        #expect(DownloadSettings.stationQuality(.kbps(100)) == .kbps(128))
        #expect(DownloadSettings.stationQuality(.kbps(192)) == .kbps(192))
        #expect(DownloadSettings.stationQuality(.kbps(500)) == .original)
        #expect(DownloadSettings.stationQuality(.best) == .original)
        #expect(DownloadSettings.stationQuality(.worst) == .kbps(64))
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "\"quality\" in [downloads] must be kbit/s (e.g. 128), \"best\" or \"worst\"")) {
            try Config.parse("[downloads]\nquality = \"high\"", path: "t.toml")
        }
        let paths = Paths(options: try GlobalOptions.parse(["--data-dir", "/data"]), environment: ["HOME": "/home/u"])
        #expect(config.downloads.folder(paths: paths, home: URL(fileURLWithPath: "/home/u")).path == "/home/u/Music/offline")
        #expect(Config().downloads.folder(paths: paths).path == "/data/downloads")
        let xdg = Paths(options: try GlobalOptions.parse([]), environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/xdg"])
        #expect(Config().downloads.folder(paths: xdg).path == "/xdg/mhz/downloads")
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "\"max_concurrent\" in [downloads] must be a whole number from 1 to 16")) {
            try Config.parse("[downloads]\nmax_concurrent = 0", path: "t.toml")
        }
        #expect(throws: CLIError.configInvalid("t.toml", line: nil,
                                               "unknown key \"folder\" in [downloads] (known: dir, max_concurrent, liked, quality, stall_timeout, segment_concurrency)")) {
            try Config.parse("[downloads]\nfolder = \"x\"", path: "t.toml")
        }
    }
}
