/// What is wrong with `config.toml`, as values: the file, where, which key and what it
/// takes. The command line words it (user-facing text is made there, not here).
public enum ConfigError: Error, Equatable, Sendable {
    /// The file cannot be read: it was named and is missing, or it is there and unreadable.
    case unreadable(path: String)
    /// The file is not UTF-8 text.
    case notText(path: String)
    /// TOMLKit refused the text: the line where it knows it and its own description.
    case syntax(path: String, line: Int?, parser: String)
    /// A construct that is no TOML and that toml++ would assert on rather than refuse
    /// (``Config/abortingTOML(in:)``), found before toml++ sees it.
    case unsafe(path: String, line: Int, UnsafeTOML)
    /// A key the table does not hold: `table` nil is the top level; `known`, the table's keys.
    case unknownKey(path: String, table: String?, key: String, known: [String])
    /// A table (`[name]`, `[[name]]`, or `name = {…}`) where none of that name belongs:
    /// `parent` nil is the top level, whose tables `known` lists; in a table, `known` is
    /// that table's keys (no table holds tables of its own).
    case unknownTable(path: String, parent: String?, name: String, known: [String])
    /// `kbps` at the top level: the bit rate asked of the station is `[station] quality`.
    case kbpsIsStationQuality(path: String)
    /// A table's name holding a value.
    case notATable(path: String, table: String)
    /// A `[keys]` entry whose key is not a string, and its line where found.
    case keyNotString(path: String, line: Int?, action: String)
    /// A key's value is not what the key takes: `table` nil is the top level.
    case invalidValue(path: String, table: String?, key: String, expected: ConfigExpectation)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path), .notText(let path), .syntax(let path, _, _), .unsafe(let path, _, _),
             .unknownKey(let path, _, _, _), .unknownTable(let path, _, _, _), .kbpsIsStationQuality(let path),
             .notATable(let path, _), .keyNotString(let path, _, _), .invalidValue(let path, _, _, _):
            path
        }
    }
}

/// What a key's value must be.
public enum ConfigExpectation: Equatable, Sendable {
    /// A string.
    case string
    /// `true` or `false`.
    case bool
    /// A whole number in the range.
    case wholeNumber(ClosedRange<Int>)
    /// A number in the range.
    case number(ClosedRange<Double>)
    /// A number above zero.
    case positiveNumber
    /// A number of seconds in the range.
    case seconds(ClosedRange<Double>)
    /// A folder's path, not empty.
    case folderPath
    /// The path of a program, not empty.
    case program
    /// An HLS quality: kbit/s, `best` or `worst`.
    case variantQuality
    /// One of these words or numbers.
    case oneOf([String])
    /// An `http` or `https` URL with a host.
    case httpURL
    /// A list of channel ids (numbers or strings).
    case channelIDs
    /// A length of time written with h, m and s (`"2h"`), up to this many seconds.
    case timeSpan(maximumSeconds: Int)
}

/// The constructs ``Config/abortingTOML(in:)`` refuses before toml++ 3.4 sees them.
public enum UnsafeTOML: Equatable, Sendable {
    /// A table header whose name begins with neither a bare-key character nor a quote.
    case headerWithoutName
    /// A blank then a digit after a value's character, but for a date then its time.
    case blankBeforeDigit
    /// A date-time whose `T` is not followed by a digit.
    case dateTimeWithoutTime
    /// A `}` that closes no inline table.
    case strayBrace
    /// A character beyond ASCII outside strings and comments.
    case beyondASCII
}
