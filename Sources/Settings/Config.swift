import Foundation
import TOMLKit

/// The settings of `config.toml` (every key is documented in `Config/config.example.toml`).
/// Command-line options win over the file.
public struct Config: Sendable, Equatable {
    /// The server's root URL (`--server` wins); absent: the embedded station.
    public var server: String?
    /// The API family, `app` or `web` (`--api` wins).
    public var api: String?
    /// The channel to start on when `--channel` is not given and none was remembered.
    public var channel: String?
    /// mpv's audio output (`ao`), e.g. `pulse`, `alsa`, `null` (`--audio-output` wins).
    public var audioOutput: String?
    /// The embedded station's music folder (`--library` wins).
    public var library: String?
    /// The volume at start, 0–100.
    public var volume: Int?
    /// Items longer than this many minutes resume where they were left.
    public var longItemMinutes: Double?
    /// Proxy for API requests (`http://host:port`, `socks5h://…`; "" for none, even if the
    /// environment names one); absent: the usual `http_proxy`-style variables.
    public var proxy: String?
    /// TLS certificate checks; only an explicit `verify_tls = false` turns them off.
    public var verifyTLS: Bool?
    /// The app family's `app_name=` (default `radio_android`).
    public var appName: String?
    /// Seconds a request may take in all.
    public var timeout: Double?
    /// Seconds a song's stream may send nothing before the player gives up on that
    /// connection and reconnects (mpv's `network-timeout`); absent: the player's 10 s.
    public var streamTimeout: Double?
    /// The `User-Agent` header.
    public var userAgent: String?
    /// `[downloads]`: where songs go, how many fetch at once, whether a like downloads.
    public var downloads = DownloadSettings()
    /// Whether a desktop notification shows each new song (`notify`, default true).
    public var notify = true
    /// Whether mhz offers MPRIS on the session bus (`mpris`, default true).
    public var mpris = true
    /// `[hooks]`: the command run on every event, and its time limit.
    public var hooks = HookSettings()
    /// `[live]`: how `mhz serve` broadcasts its channels live.
    public var live = LiveSettings()
    /// `[station]`: what is asked of the station (the original file, or an MP3 bit rate).
    public var station = StationSettings()
    /// `[radio]`: how the station chooses (the variety dial).
    public var radio = RadioSettings()
    /// `[scrobble]`: ListenBrainz's and Last.fm's credentials and addresses.
    public var scrobble = ScrobbleSettings()
    /// `[keys]`: action name → key(s), overriding the default key table.
    public var keys: [String: String] = [:]
    /// The line of each `[keys]` entry, so a bad binding can be named by line.
    public var keyLines: [String: Int] = [:]
    /// The file the settings came from, for messages.
    public var path: String = ""

    /// Settings as a missing file gives them.
    public init() {}

    /// The volume at start when `volume` is absent.
    public static let defaultVolume = 100
    /// The embedded station's music folder when neither `--library` nor `library` names one.
    public static let defaultLibrary = "~/Music"

    /// Every top-level key the file may hold, besides the tables; others are errors.
    public static let keys = ["server", "api", "channel", "audio_output", "library", "volume", "long_item_minutes",
                       "proxy", "verify_tls", "app_name", "timeout", "stream_timeout", "user_agent", "notify", "mpris"]
    /// The tables the file may hold: `[keys]`, `[downloads]`, `[hooks]`, `[station]`, `[radio]`,
    /// `[scrobble]`, `[live]`.
    public static let tables = ["keys", "downloads", "hooks", "station", "radio", "scrobble", "live"]

    /// Reads the file; a missing file is an empty configuration unless it was named
    /// explicitly.
    public static func read(from url: URL, explicit: Bool) throws(ConfigError) -> Config {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            if explicit || FileManager.default.fileExists(atPath: url.path) { throw .unreadable(path: url.path) }
            return Config()
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .notText(path: url.path) }
        return try read(text, path: url.path)
    }

    /// Parses TOML text; errors name the file, the line where known, and the key.
    public static func read(_ text: String, path: String) throws(ConfigError) -> Config {
        if let (line, construct) = abortingTOML(in: text) { throw .unsafe(path: path, line: line, construct) }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(path: path, line: error.source.begin.line, parser: error.description)
        } catch {
            throw .syntax(path: path, line: nil, parser: "\(error)")
        }
        var config = Config()
        config.path = path
        for key in table.keys where !tables.contains(key) {
            // The bit rate asked of the station is `[station] quality`, which also asks for the original.
            if key == "kbps" {
                throw .kbpsIsStationQuality(path: path)
            }
            guard keys.contains(key) else { throw unknown(key, in: nil, of: table, path: path, known: keys) }
        }
        if let value = table["keys"] {
            guard let bindings = value.table else { throw .notATable(path: path, table: "keys") }
            for action in bindings.keys {
                guard let key = bindings[action]?.string else {
                    throw .keyNotString(path: path, line: lineOf(action, in: text), action: action)
                }
                config.keys[action] = key
                config.keyLines[action] = lineOf(action, in: text)
            }
        }
        // A named table of its own, or nothing: a key of that name holding anything else is refused.
        func section(_ name: String) throws(ConfigError) -> TOMLTable? {
            guard let value = table[name] else { return nil }
            guard let section = value.table else { throw .notATable(path: path, table: name) }
            return section
        }
        if let downloads = try section("downloads") { config.downloads = try DownloadSettings.parse(downloads, path: path) }
        if let hooks = try section("hooks") { config.hooks = try HookSettings.parse(hooks, path: path) }
        if let station = try section("station") { config.station = try StationSettings.parse(station, path: path) }
        if let radio = try section("radio") { config.radio = try RadioSettings.parse(radio, path: path) }
        if let scrobble = try section("scrobble") { config.scrobble = try ScrobbleSettings.parse(scrobble, path: path) }
        if let live = try section("live") { config.live = try LiveSettings.parse(live, path: path) }
        for key in ["notify", "mpris"] {
            guard let value = table[key] else { continue }
            guard let flag = value.bool else { throw .invalidValue(path: path, table: nil, key: key, expected: .bool) }
            if key == "notify" { config.notify = flag } else { config.mpris = flag }
        }
        func string(_ key: String) throws(ConfigError) -> String? {
            guard let value = table[key] else { return nil }
            if let s = value.string { return s }
            if key == "channel", let i = value.int { return String(i) }
            throw .invalidValue(path: path, table: nil, key: key, expected: .string)
        }
        config.server = try string("server")
        config.api = try string("api")
        config.channel = try string("channel")
        config.audioOutput = try string("audio_output")
        config.library = try string("library")
        if let value = table["volume"] {
            guard let v = value.int, (0...100).contains(v) else {
                throw .invalidValue(path: path, table: nil, key: "volume", expected: .wholeNumber(0...100))
            }
            config.volume = v
        }
        if let value = table["long_item_minutes"] {
            guard let minutes = value.double ?? value.int.map(Double.init), minutes > 0 else {
                throw .invalidValue(path: path, table: nil, key: "long_item_minutes", expected: .positiveNumber)
            }
            config.longItemMinutes = minutes
        }
        config.proxy = try string("proxy")
        config.appName = try string("app_name")
        config.userAgent = try string("user_agent")
        if let value = table["verify_tls"] {
            guard let flag = value.bool else { throw .invalidValue(path: path, table: nil, key: "verify_tls", expected: .bool) }
            config.verifyTLS = flag
        }
        if let value = table["timeout"] {
            guard let seconds = value.double ?? value.int.map(Double.init), seconds >= 1, seconds <= 600 else {
                throw .invalidValue(path: path, table: nil, key: "timeout", expected: .seconds(1...600))
            }
            config.timeout = seconds
        }
        if let value = table["stream_timeout"] {
            guard let seconds = value.double ?? value.int.map(Double.init), seconds >= 1, seconds <= 600 else {
                throw .invalidValue(path: path, table: nil, key: "stream_timeout", expected: .seconds(1...600))
            }
            config.streamTimeout = seconds
        }
        return config
    }

    /// The 1-based line of the first construct that toml++ 3.4, under TOMLKit, asserts on
    /// instead of refusing (an abort, or undefined behaviour without assertions), so that it
    /// is refused before toml++ sees it: a table header whose name begins with neither a
    /// bare-key character nor a quote (`[=]`, `[#]`, `[` alone on its line), and a date-time
    /// whose `T` is not followed by a digit (`1979-05-27T)7:32`), and any character beyond
    /// ASCII, which toml++ may read as whitespace ending a value it has begun
    /// (`1879-06-21 0\u{FEFF}`), and a `}` that closes no inline table (`[1, }]`, where
    /// toml++ asks for a value), and a blank then a digit after a value's character, but for
    /// a date then its time (`1979-e0-5l 2`, `1879-04-21 0 -0`). None is valid TOML: beyond ASCII, only strings and comments
    /// may hold them. Read outside strings and comments, by bytes as toml++ reads them
    /// (`\r\n` is one Character); a byte-order mark that begins the file is let through.
    public static func abortingTOML(in text: String) -> (line: Int, construct: UnsafeTOML)? {
        let bytes = Array(text.utf8)
        func byte(_ at: Int) -> UInt8? { at < bytes.count ? bytes[at] : nil }
        func isDigit(_ at: Int) -> Bool { byte(at).map { (0x30...0x39).contains($0) } ?? false }
        func skipBlanks(_ at: Int) -> Int {
            var next = at
            while byte(next) == 0x20 || byte(next) == 0x09 { next += 1 }
            return next
        }
        func beginsName(_ value: UInt8) -> Bool {
            switch value {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                 UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]"):
                true
            default: false
            }
        }
        func isAlphanumeric(_ value: UInt8) -> Bool {
            (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        func isDate(at start: Int) -> Bool {
            (0..<10).allSatisfy { offset in offset == 4 || offset == 7 ? byte(start + offset) == UInt8(ascii: "-") : isDigit(start + offset) }
        }
        // `open` holds the brackets and braces of values left open, innermost last: a line
        // that begins with `[` inside an array is an element, not a header.
        var line = 1, index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0, atLineStart = true, open: [UInt8] = []
        while let current = byte(index) {
            switch current {
            case UInt8(ascii: "\n"):
                line += 1
                atLineStart = true
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                // Between a value's characters, a blank and a digit only continue a date into a
                // date-time (`hh:`): toml++ rescans anything else of the kind and asserts
                // (`1979-e0-5l 2 =`, `1879-04-21 0 -0`).
                if index > 0, isAlphanumeric(bytes[index - 1]), isDigit(index + 1),
                   index < 10 || !isDate(at: index - 10) || !isDigit(index + 2) || byte(index + 3) != UInt8(ascii: ":") {
                    return (line, .blankBeforeDigit)
                }
                index += 1
            case UInt8(ascii: "#"):
                while let next = byte(index), next != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A string, skipped whole: what it holds is no header and no date.
                let triple = byte(index + 1) == current && byte(index + 2) == current
                index += triple ? 3 : 1
                while let next = byte(index) {
                    if next == UInt8(ascii: "\\"), current == UInt8(ascii: "\"") {
                        if byte(index + 1) == UInt8(ascii: "\n") { line += 1 }
                        index += 2
                    } else if next == UInt8(ascii: "\n") {
                        guard triple else { break }
                        line += 1
                        index += 1
                    } else if next == current, !triple || (byte(index + 1) == current && byte(index + 2) == current) {
                        index += triple ? 3 : 1
                        break
                    } else {
                        index += 1
                    }
                }
                atLineStart = false
            case UInt8(ascii: "[") where atLineStart && open.isEmpty:
                var name = skipBlanks(index + 1)
                if byte(name) == UInt8(ascii: "[") { name = skipBlanks(name + 1) }
                if let first = byte(name), !beginsName(first) {
                    return (line, .headerWithoutName)
                }
                atLineStart = false
                index = name
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(current)
                atLineStart = false
                index += 1
            case UInt8(ascii: "}") where open.last != UInt8(ascii: "{"):
                return (line, .strayBrace)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                _ = open.popLast()
                atLineStart = false
                index += 1
            case 0x80...:
                return (line, .beyondASCII)
            default:
                let time = index + 10
                if isDate(at: index), byte(time) == UInt8(ascii: "T") || byte(time) == UInt8(ascii: "t"),
                   byte(time + 1) != nil, !isDigit(time + 1) {
                    return (line, .dateTimeWithoutTime)
                }
                atLineStart = false
                index += 1
            }
        }
        return nil
    }

    /// The error of `key`, which the table `name` (`nil`: the top level) does not hold:
    /// an unknown table when it holds a table (or an array of them), else an unknown key.
    static func unknown(_ key: String, in name: String?, of table: TOMLTable, path: String, known: [String]) -> ConfigError {
        let value = table[key]
        let holdsTables = value?.table != nil
            || value?.array.map { !$0.isEmpty && $0.allSatisfy { $0.table != nil } } == true
        guard holdsTables else { return .unknownKey(path: path, table: name, key: key, known: known) }
        return .unknownTable(path: path, parent: name, name: key, known: name == nil ? tables : known)
    }

    /// The 1-based line where `key = …` is written inside `[keys]`, if it can be found.
    private static func lineOf(_ key: String, in text: String) -> Int? {
        var inKeys = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { inKeys = line.replacingOccurrences(of: " ", with: "") == "[keys]"; continue }
            guard inKeys, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if name == key { return index + 1 }
        }
        return nil
    }
}
