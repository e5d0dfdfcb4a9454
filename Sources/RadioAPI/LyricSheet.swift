import Foundation

/// Lyrics read from LRC text, the format of Douban's lyric answers and of `.lrc` files:
/// lines of `[mm:ss.xx]text`, several time tags on one line for a line sung more than once,
/// ID tags (`[ti:]`, `[ar:]`, `[al:]`, `[offset:]`), and enhanced LRC's word tags
/// (`<mm:ss.xx>word`), which are read and left out of the text since mhz draws lines, not
/// words. Text without any time tag is unsynchronized lyrics: its lines, in order.
///
/// Pure and total: any text parses; what is not a tag is text.
public struct LyricSheet: Sendable, Equatable {
    /// One timed line.
    public struct Line: Sendable, Equatable {
        /// When the line begins, in seconds from the song's start, with the sheet's
        /// `[offset:]` applied; never negative.
        public var time: Double
        /// The line's text, word tags removed and trimmed; may be empty (an instrumental gap).
        public var text: String

        /// Creates a line.
        public init(time: Double, text: String) {
            self.time = time
            self.text = text
        }
    }

    /// The timed lines in time order (lines of equal time in the order written); empty for
    /// unsynchronized lyrics.
    public var lines: [Line]
    /// The lines of unsynchronized lyrics (no time tag anywhere), ID tags left out; empty
    /// for synchronized lyrics.
    public var plainLines: [String]
    /// `[ti:]`, the title; empty when absent.
    public var title: String
    /// `[ar:]`, the artist; empty when absent.
    public var artist: String
    /// `[al:]`, the album; empty when absent.
    public var album: String
    /// `[offset:]` in milliseconds: positive shows lines earlier (LRC's convention).
    public var offsetMilliseconds: Int

    /// Whether the lyrics carry times.
    public var isSynced: Bool { !lines.isEmpty }
    /// Whether there are no lyrics at all.
    public var isEmpty: Bool { lines.isEmpty && plainLines.isEmpty }

    /// Parses LRC (or plain) text.
    public init(parsing text: String) {
        var timed: [(time: Double, order: Int, text: String)] = []
        var plain: [String] = []
        var title = "", artist = "", album = ""
        var offset = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var rest = Substring(raw).drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            var stamps: [Double] = []
            var isTagLine = false
            // Leading [..] groups: time tags, or one ID tag.
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let seconds = Self.seconds(inside) {
                    stamps.append(seconds)
                } else if stamps.isEmpty, let colon = inside.firstIndex(of: ":") {
                    let key = inside[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                    let value = inside[inside.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    // Only LRC's own ID tags: `[Chorus: both]` in plain lyrics is text.
                    guard Self.idTags.contains(key) else { break }
                    switch key {
                    case "ti": title = value
                    case "ar": artist = value
                    case "al": album = value
                    case "offset": offset = Int(value) ?? offset
                    default: break
                    }
                    isTagLine = true
                } else {
                    break
                }
                rest = rest[rest.index(after: close)...]
            }
            if !stamps.isEmpty {
                let words = Self.removingWordTags(rest).trimmingCharacters(in: .whitespaces)
                for stamp in stamps { timed.append((stamp, timed.count, words)) }
            } else if !isTagLine {
                plain.append(Self.removingWordTags(rest).trimmingCharacters(in: .whitespaces))
            }
        }
        self.title = title
        self.artist = artist
        self.album = album
        offsetMilliseconds = offset
        if timed.isEmpty {
            // Blank lines at either end are layout, not lyrics.
            while plain.last?.isEmpty == true { plain.removeLast() }
            while plain.first?.isEmpty == true { plain.removeFirst() }
            lines = []
            plainLines = plain
        } else {
            let shift = Double(offset) / 1000
            lines = timed.sorted { ($0.time, $0.order) < ($1.time, $1.order) }
                .map { Line(time: max(0, $0.time - shift), text: $0.text) }
            plainLines = []
        }
    }

    /// LRC's ID tags (`[ti:]`, `[length:]`, `[#:]` a comment, …), read or skipped; any other
    /// `[word: …]` is text.
    static let idTags: Set<String> = ["ti", "ar", "al", "au", "by", "length", "offset", "re", "ve", "tool", "#"]

    /// The index of the line being sung at `seconds` (the last line begun by then), or nil
    /// before the first line and for unsynchronized lyrics.
    public func lineIndex(at seconds: Double) -> Int? {
        // Binary search for the first line after `seconds`.
        var low = 0, high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].time <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Seconds of a time tag's inside: `mm:ss`, `mm:ss.x…`, `mm:ss:xx` (a variant some
    /// editors write) or `hh:mm:ss.xx`; nil for anything else.
    static func seconds(_ tag: Substring) -> Double? {
        let parts = tag.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        func number(_ part: Substring) -> Double? {
            guard part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), part.first != "." else { return nil }
            return Double(part)
        }
        guard let first = number(parts[0]), let second = number(parts[1]) else { return nil }
        if parts.count == 2 { return first.rounded(.down) == first ? first * 60 + second : nil }
        guard let third = number(parts[2]) else { return nil }
        // mm:ss:xx has two-digit hundredths after whole seconds; hh:mm:ss(.xx) otherwise.
        if !parts[1].contains("."), parts[2].count == 2, !parts[2].contains("."), second < 60, first < 100 {
            return first * 60 + second + third / 100
        }
        return first * 3600 + second * 60 + third
    }

    /// The text without enhanced LRC's `<mm:ss.xx>` word tags.
    static func removingWordTags(_ text: Substring) -> String {
        guard text.contains("<") else { return String(text) }
        var result = ""
        var rest = text
        while let open = rest.firstIndex(of: "<") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: ">"), seconds(after[..<close]) != nil {
                rest = after[after.index(after: close)...]
            } else {
                result.append("<")
                rest = after
            }
        }
        return result + rest
    }
}
