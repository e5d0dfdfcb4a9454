import Settings

extension CLIError {
    /// `config.toml`'s error in words: what is wrong, where, and what the key takes.
    init(_ error: ConfigError) {
        switch error {
        case .unreadable(let path):
            self = .configUnreadable(path)
        case .notText(let path):
            self = .configInvalid(path, line: nil, "not UTF-8 text")
        case .syntax(let path, let line, let parser):
            self = .configInvalid(path, line: line, parser)
        case .unsafe(let path, let line, let construct):
            self = .configInvalid(path, line: line, Self.words(construct))
        case .unknownKey(let path, nil, let key, _):
            self = .configInvalid(path, line: nil, "unknown key \"\(key)\"")
        case .unknownKey(let path, let table?, let key, let known):
            self = .configInvalid(path, line: nil,
                                  "unknown key \"\(key)\" in [\(table)] (known: \(known.joined(separator: ", ")))")
        case .unknownTable(let path, nil, let name, let known):
            self = .configInvalid(path, line: nil, "unknown table [\(name)] (known: \(known.joined(separator: ", ")))")
        case .unknownTable(let path, let parent?, let name, let known):
            self = .configInvalid(path, line: nil, "unknown table [\(parent).\(name)]: [\(parent)] holds no tables, only keys "
                                  + "(\(known.joined(separator: ", ")))")
        case .kbpsIsStationQuality(let path):
            self = .configInvalid(path, line: nil,
                                  "\"kbps\" is set as \"quality\" in [station]: one of \(StationSettings.acceptedQualities)")
        case .notATable(let path, let table):
            self = .configInvalid(path, line: nil, "[\(table)] must be a table")
        case .keyNotString(let path, let line, let action):
            self = .configInvalid(path, line: line, "key for \"\(action)\" must be a string")
        case .invalidValue(let path, let table, let key, let expected):
            self = .configInvalid(path, line: nil, "\(Self.subject(key, in: table)) must be \(Self.words(expected))")
        }
    }

    /// The key as the messages name it: `"volume"` at the top level, `[hooks] timeout` and
    /// `[scrobble] lastfm_url` in those tables, `"quality" in [station]` in the others.
    private static func subject(_ key: String, in table: String?) -> String {
        guard let table else { return "\"\(key)\"" }
        return table == "hooks" || table == "scrobble" ? "[\(table)] \(key)" : "\"\(key)\" in [\(table)]"
    }

    /// What a key takes, after "must be".
    private static func words(_ expected: ConfigExpectation) -> String {
        switch expected {
        case .string: "a string"
        case .bool: "true or false"
        case .wholeNumber(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .number(let range): "a number from \(number(range.lowerBound)) to \(number(range.upperBound))"
        case .positiveNumber: "a positive number"
        case .seconds(let range): "a number of seconds from \(number(range.lowerBound)) to \(number(range.upperBound))"
        case .folderPath: "a folder path"
        case .program: "the path of a program, e.g. \"~/bin/mhz-event\""
        case .variantQuality: "kbit/s (e.g. 128), \"best\" or \"worst\""
        case .oneOf(let words): "one of \(words.joined(separator: ", "))"
        case .httpURL: "an http(s) URL"
        case .channelIDs: "a list of channel ids, e.g. [1, 4]"
        case .timeSpan(let maximum) where maximum >= 3600:
            "a length of time such as \"2h\", \"90m\" or \"45s\", at most \(maximum / 3600) hours"
        case .timeSpan(let maximum): "a length of time such as \"3s\" (\"0s\" for none), at most \(maximum) seconds"
        }
    }

    /// What is wrong with a construct toml++ would not survive, and how it is written.
    private static func words(_ construct: UnsafeTOML) -> String {
        switch construct {
        case .headerWithoutName: "a table header must begin with a name: a letter, digit, _, - or a quote"
        case .blankBeforeDigit: "only a date may be followed by a blank and a time, e.g. 1979-05-27 07:32:00"
        case .dateTimeWithoutTime: "a date-time must have a time after its T, e.g. 1979-05-27T07:32:00"
        case .strayBrace: "a } must close an inline table's {"
        case .beyondASCII: "only strings and comments may hold characters beyond ASCII: quote the value"
        }
    }

    /// A bound as written: whole numbers without a fraction.
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
