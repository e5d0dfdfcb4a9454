import Foundation

/// Reads the lines after `#EXTM3U` of a media playlist. Tags are collected as they come
/// and each segment's numbers (media sequence, implicit IV) are given at the end, since
/// `EXT-X-MEDIA-SEQUENCE` and `EXT-X-TARGETDURATION` may follow other tags.
enum MediaReader {
    /// A key as the tag says it; its IV is fixed per segment once numbers are known.
    private struct KeyTag: Hashable {
        var method: SegmentKey.Method
        var uri: URL?
        var iv: [UInt8]?
        var keyFormat: String?
        var keyFormatVersions: String?
    }

    /// A MAP tag, numbered so every segment that shares it gets the same value.
    private struct MapTag {
        var id: Int
        var uri: URL
        var byteRange: ByteRange?
        var key: KeyTag?
    }

    /// A segment before numbering.
    private struct Pending {
        var uri: URL
        var duration: Double
        var title: String?
        var byteRange: ByteRange?
        var key: KeyTag?
        var map: MapTag?
        var discontinuity: Bool
        var discontinuitySequence: Int
        var programDateTime: Date?
    }

    static func read(_ lines: [PlaylistParser.Line], base: URL) throws(PlaylistError) -> MediaPlaylist {
        var playlist = MediaPlaylist()
        var pending: [Pending] = []
        var extinf: (duration: Double, title: String?)?
        var range: (length: Int64, offset: Int64?)?
        var key: KeyTag?
        var map: MapTag?
        var discontinuity = false
        var discontinuitySequence: Int?
        var discontinuities = 0
        // The tags that set the two sequence numbers, for the error of a number they make
        // too large to count segments from.
        var mediaSequenceTag: PlaylistParser.Line?
        var discontinuitySequenceTag: PlaylistParser.Line?
        var date: Date?
        var rangeEnd: Int64?
        var maps = 0
        for line in lines {
            if let value = line.value(of: "#EXTINF") {
                let comma = value.firstIndex(of: ",")
                let number = (comma.map { value[..<$0] } ?? value).trimmingCharacters(in: .whitespaces)
                let duration = try seconds(number, line: line)
                let title = comma.map { value[value.index(after: $0)...].trimmingCharacters(in: .whitespaces) }
                extinf = (duration, title?.isEmpty == false ? title : nil)
            } else if let value = line.value(of: "#EXT-X-BYTERANGE") {
                range = try byteRange(value, line: line)
            } else if let value = line.value(of: "#EXT-X-KEY") {
                key = try keyTag(value, line: line, base: base)
            } else if let value = line.value(of: "#EXT-X-MAP") {
                let list = try PlaylistParser.attributes(value, line: line)
                guard let text = list["URI"] else { throw .malformed(line: line.number, text: line.text, reason: .missingURI) }
                let uri = try PlaylistParser.resolve(text, base: base, line: line)
                let mapRange = try list["BYTERANGE"].map { text throws(PlaylistError) in
                    let parsed = try byteRange(Substring(text), line: line)
                    guard !(parsed.offset ?? 0).addingReportingOverflow(parsed.length).overflow else {
                        throw .malformed(line: line.number, text: line.text, reason: .badByteRange)
                    }
                    return ByteRange(length: parsed.length, offset: parsed.offset ?? 0)
                }
                maps += 1
                map = MapTag(id: maps, uri: uri, byteRange: mapRange, key: key)
            } else if line.value(of: "#EXT-X-DISCONTINUITY") != nil {
                discontinuity = true
                discontinuities += 1
            } else if let value = line.value(of: "#EXT-X-PROGRAM-DATE-TIME") {
                date = ProgramDateTime.parse(String(value))
            } else if let value = line.value(of: "#EXT-X-TARGETDURATION") {
                playlist.targetDuration = try seconds(value.trimmingCharacters(in: .whitespaces), line: line)
            } else if let value = line.value(of: "#EXT-X-MEDIA-SEQUENCE") {
                playlist.mediaSequence = try integer(value, line: line)
                mediaSequenceTag = line
            } else if let value = line.value(of: "#EXT-X-DISCONTINUITY-SEQUENCE") {
                discontinuitySequence = try integer(value, line: line)
                discontinuitySequenceTag = line
            } else if let value = line.value(of: "#EXT-X-VERSION") {
                playlist.version = try integer(value, line: line)
            } else if let value = line.value(of: "#EXT-X-PLAYLIST-TYPE") {
                playlist.playlistType = MediaPlaylist.PlaylistType(rawValue: value.trimmingCharacters(in: .whitespaces).uppercased())
            } else if line.value(of: "#EXT-X-ENDLIST") != nil {
                playlist.hasEndList = true
            } else if line.value(of: "#EXT-X-INDEPENDENT-SEGMENTS") != nil {
                playlist.independentSegments = true
            } else if line.isURI, let (duration, title) = extinf {
                let uri = try PlaylistParser.resolve(line.text, base: base, line: line)
                var resolved: ByteRange?
                if let range {
                    // RFC 8216 §4.3.2.2: without an offset, the range starts after the
                    // previous segment's.
                    let offset = range.offset ?? rangeEnd ?? 0
                    let (end, overflow) = offset.addingReportingOverflow(range.length)
                    guard !overflow else { throw .malformed(line: line.number, text: line.text, reason: .badByteRange) }
                    resolved = ByteRange(length: range.length, offset: offset)
                    rangeEnd = end
                }
                // Numbers past 2^63 cannot be a segment's: refused rather than wrapped, naming
                // the tag whose number is too large.
                if playlist.mediaSequence.addingReportingOverflow(pending.count + 1).overflow {
                    let tag = mediaSequenceTag ?? line
                    throw .malformed(line: tag.number, text: tag.text, reason: .badNumber)
                }
                if (discontinuitySequence ?? 0).addingReportingOverflow(discontinuities).overflow {
                    let tag = discontinuitySequenceTag ?? line
                    throw .malformed(line: tag.number, text: tag.text, reason: .badNumber)
                }
                let previous = pending.last
                let pdt = date ?? previous.flatMap { last in last.programDateTime.map { $0.addingTimeInterval(last.duration) } }
                pending.append(Pending(uri: uri, duration: duration, title: title, byteRange: resolved, key: key, map: map,
                                       discontinuity: discontinuity,
                                       discontinuitySequence: (discontinuitySequence ?? 0) + discontinuities,
                                       programDateTime: pdt))
                extinf = nil
                range = nil
                discontinuity = false
                date = nil
            }
            // Other lines: comments, unknown tags, and URI lines with no EXTINF before them.
        }
        playlist.discontinuitySequence = discontinuitySequence ?? 0
        playlist.segments = number(pending, from: playlist.mediaSequence)
        return playlist
    }

    /// Gives each segment its sequence number and each key its IV: the `IV` attribute, or
    /// the number of the segment it decrypts (for a MAP, of the first segment after it).
    private static func number(_ pending: [Pending], from first: Int) -> [Segment] {
        var maps: [Int: MediaMap] = [:]
        return pending.enumerated().map { index, raw in
            let sequence = first + index
            func resolve(_ tag: KeyTag?) -> SegmentKey? {
                guard let tag else { return nil }
                return SegmentKey(method: tag.method, uri: tag.uri, iv: tag.iv ?? SegmentKey.implicitIV(sequence),
                                  ivIsExplicit: tag.iv != nil, keyFormat: tag.keyFormat,
                                  keyFormatVersions: tag.keyFormatVersions)
            }
            var map: MediaMap?
            if let tag = raw.map {
                let known = maps[tag.id] ?? MediaMap(uri: tag.uri, byteRange: tag.byteRange, key: resolve(tag.key))
                maps[tag.id] = known
                map = known
            }
            return Segment(uri: raw.uri, sequence: sequence, duration: raw.duration, title: raw.title,
                           byteRange: raw.byteRange, key: resolve(raw.key), map: map, discontinuity: raw.discontinuity,
                           discontinuitySequence: raw.discontinuitySequence, programDateTime: raw.programDateTime)
        }
    }

    /// `LENGTH[@OFFSET]`.
    private static func byteRange(_ value: Substring, line: PlaylistParser.Line) throws(PlaylistError) -> (length: Int64, offset: Int64?) {
        let parts = value.trimmingCharacters(in: .whitespaces).split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let length = Int64(parts[0]), length >= 0 else {
            throw .malformed(line: line.number, text: line.text, reason: .badByteRange)
        }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = Int64(parts[1]), offset >= 0 else {
            throw .malformed(line: line.number, text: line.text, reason: .badByteRange)
        }
        return (length, offset)
    }

    /// `METHOD`, `URI`, `IV`, `KEYFORMAT`, `KEYFORMATVERSIONS`; nil for `METHOD=NONE`.
    private static func keyTag(_ value: Substring, line: PlaylistParser.Line, base: URL) throws(PlaylistError) -> KeyTag? {
        let list = try PlaylistParser.attributes(value, line: line)
        let method = list["METHOD"] ?? "NONE"
        if method.uppercased() == "NONE" { return nil }
        var iv: [UInt8]?
        if let text = list["IV"] {
            guard let bytes = SegmentKey.explicitIV(text) else { throw .malformed(line: line.number, text: line.text, reason: .badIV) }
            iv = bytes
        }
        // A key URI in a scheme of its own (`skd://` of FairPlay) is kept as written.
        let uri = try list["URI"].map { text throws(PlaylistError) in try PlaylistParser.resolve(text, base: base, line: line) }
        return KeyTag(method: SegmentKey.Method(method), uri: uri, iv: iv, keyFormat: list["KEYFORMAT"],
                      keyFormatVersions: list["KEYFORMATVERSIONS"])
    }

    /// A decimal integer that fits in 64 bits (RFC 8216 §4.2 allows up to 2^64 − 1; mhz's
    /// numbers are signed, and no playlist counts that far).
    private static func integer(_ value: Substring, line: PlaylistParser.Line) throws(PlaylistError) -> Int {
        guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
            throw .malformed(line: line.number, text: line.text, reason: .badNumber)
        }
        return number
    }

    /// A duration in seconds (`EXTINF`, `EXT-X-TARGETDURATION`): a decimal number from 0 to
    /// ``MediaPlaylist/longestDuration``. `Double(_:)` also reads `inf`, `nan` and hex
    /// floats, and `1e308` is finite: none of them is a segment's length, and each would
    /// overflow what is counted from durations (milliseconds, estimates, waits).
    private static func seconds(_ text: String, line: PlaylistParser.Line) throws(PlaylistError) -> Double {
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                  || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }),
              let seconds = Double(text), seconds >= 0, seconds <= MediaPlaylist.longestDuration
        else { throw .malformed(line: line.number, text: line.text, reason: .badDuration) }
        return seconds
    }
}
