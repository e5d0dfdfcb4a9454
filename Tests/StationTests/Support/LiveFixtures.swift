import Foundation
@testable import Station
import TestSupport

/// A station's live playlist as the tests read it: RFC 8216's lines taken one by one.
struct LiveMediaPlaylist: Sendable {
    /// One listed segment.
    struct Entry: Sendable, Equatable {
        var sequence: Int
        var dateTime: String
        var duration: Double
        var title: String
        var uri: String
        var discontinuity: Bool
    }

    var targetDuration: Int?
    var mediaSequence: Int?
    var discontinuitySequence = 0
    var entries: [Entry] = []
    var ended = false
    var startTag = false
    var vod = false

    /// The discontinuities before the window's first segment and in it: the broadcast's
    /// interruptions so far, as the playlist counts them.
    var discontinuities: Int {
        discontinuitySequence + entries.dropFirst().filter(\.discontinuity).count
    }

    /// Parses `text`; each segment line must follow its PROGRAM-DATE-TIME and EXTINF.
    init(_ text: String) {
        var dateTime = ""
        var duration = -1.0
        var title = ""
        var discontinuity = false
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                targetDuration = Int(line.dropFirst("#EXT-X-TARGETDURATION:".count))
            } else if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                mediaSequence = Int(line.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count))
            } else if line.hasPrefix("#EXT-X-DISCONTINUITY-SEQUENCE:") {
                discontinuitySequence = Int(line.dropFirst("#EXT-X-DISCONTINUITY-SEQUENCE:".count)) ?? -1
            } else if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") {
                dateTime = String(line.dropFirst("#EXT-X-PROGRAM-DATE-TIME:".count))
            } else if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count)
                let comma = value.firstIndex(of: ",") ?? value.endIndex
                duration = Double(value[..<comma]) ?? -1
                title = comma < value.endIndex ? String(value[value.index(after: comma)...]) : ""
            } else if line == "#EXT-X-DISCONTINUITY" {
                discontinuity = true
            } else if line == "#EXT-X-ENDLIST" {
                ended = true
            } else if line.hasPrefix("#EXT-X-START:") {
                startTag = true
            } else if line == "#EXT-X-PLAYLIST-TYPE:VOD" {
                vod = true
            } else if !line.hasPrefix("#"), !line.isEmpty {
                entries.append(Entry(sequence: (mediaSequence ?? 0) + entries.count, dateTime: dateTime,
                                     duration: duration, title: title, uri: line, discontinuity: discontinuity))
                dateTime = ""
                duration = -1
                title = ""
                discontinuity = false
            }
        }
    }
}

/// Songs for the live tests, and the station around them.
enum LiveFixtures {
    /// The genre of every song, so the library has one public channel holding them all.
    static let genre = "Livetest"

    /// Three short songs of odd lengths (a song changes every few segments) in three
    /// formats and rates, made with ffmpeg once per test process.
    static var library: URL {
        get async throws { try await libraryTask.value }
    }

    private static let libraryTask = Task {
        try await offPool { () throws -> URL in
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("live-library", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let songs: [(name: String, input: String, codec: [String])] = [
                ("01 Red.flac", "sine=frequency=330:duration=2.7:sample_rate=44100", ["-ac", "2", "-c:a", "flac"]),
                ("02 Green.ogg", "sine=frequency=440:duration=3.3:sample_rate=48000", ["-ac", "2", "-c:a", "libvorbis"]),
                ("03 Blue.wav", "sine=frequency=550:duration=2.2:sample_rate=22050", ["-ac", "1"]),
            ]
            for song in songs {
                let title = song.name.dropFirst(3).split(separator: ".")[0]
                try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                                                "-f", "lavfi", "-i", song.input] + song.codec
                                        + ["-metadata", "title=\(title)", "-metadata", "artist=Band \(title)",
                                           "-metadata", "genre=\(genre)", root.appendingPathComponent(song.name).path])
            }
            return root
        }
    }

    /// A station over ``library`` with 1-second segments, on `data`.
    static func station(data: URL, adjust: (inout StationConfiguration) -> Void = { _ in }) async throws -> Station {
        var configuration = StationConfiguration(library: try await library, fallsBackToDemo: false, dataDirectory: data,
                                                 seed: 11, rescanInterval: nil)
        configuration.analysesSound = false
        configuration.live.segmentDuration = .seconds(1)
        adjust(&configuration)
        return try await Station(configuration: configuration)
    }

    /// The id of the channel of ``genre``.
    static func channel(_ base: URL) async throws -> String {
        let answer = try await HTTPFetch.get(base, "/j/app/radio/channels")
        let channels = try answer.jsonObject()["channels"] as? [[String: Any]] ?? []
        guard let match = channels.first(where: { $0["name"] as? String == genre }),
              let id = match["channel_id"] as? Int else { throw TestSupportError.timeout("no channel \(genre)") }
        return String(id)
    }

    /// A variant's playlist.
    static func playlist(_ base: URL, _ channel: String, kbps: Int = 128, query: String = "") async throws -> LiveMediaPlaylist {
        let answer = try await HTTPFetch.get(base, "/live/\(channel)/\(kbps).m3u8\(query.isEmpty ? "" : "?" + query)")
        guard answer.status == 200 else { throw TestSupportError.timeout("playlist answered \(answer.status): \(answer.text)") }
        return LiveMediaPlaylist(answer.text)
    }

    /// Polls the variant's live playlist until `condition` holds. The broadcast keeps the
    /// wall clock's pace only as fast as the debug encoder makes three variants, which on
    /// two cores busy beside it has been several times slower than real time: the limit is
    /// 120 s, which only a failure waits.
    static func waitFor(_ base: URL, _ channel: String, _ what: String,
                        _ condition: (LiveMediaPlaylist) -> Bool) async throws -> LiveMediaPlaylist {
        try await waitForValue(what, within: .seconds(120), every: .milliseconds(100)) {
            let list = try await playlist(base, channel)
            return condition(list) ? list : nil
        }
    }

    /// `PROGRAM-DATE-TIME` in milliseconds since the epoch.
    static func milliseconds(_ dateTime: String) -> Int64? {
        // 2026-11-27T15:30:00.123Z
        let digits = dateTime.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
        guard digits.count == 7 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(digits[0] - 1900)
        parts.tm_mon = Int32(digits[1] - 1)
        parts.tm_mday = Int32(digits[2])
        parts.tm_hour = Int32(digits[3])
        parts.tm_min = Int32(digits[4])
        parts.tm_sec = Int32(digits[5])
        return Int64(timegm(&parts)) * 1000 + Int64(digits[6])
    }

    /// The MPEG-TS packets of `bytes` whose continuity counter does not follow the previous
    /// one of their PID (ISO/IEC 13818-1 §2.4.3.3: one more for each packet with a payload),
    /// as "pid: expected got"; `nil` when `bytes` are not whole packets.
    static func continuityBreaks(_ bytes: Data) -> [String]? {
        let data = [UInt8](bytes)
        guard data.count % 188 == 0 else { return nil }
        var last: [Int: Int] = [:]
        var breaks: [String] = []
        for offset in stride(from: 0, to: data.count, by: 188) {
            guard data[offset] == 0x47 else { return nil }
            let pid = Int(data[offset + 1] & 0x1F) << 8 | Int(data[offset + 2])
            guard data[offset + 3] & 0x10 != 0, pid != 0x1FFF else { continue }
            let counter = Int(data[offset + 3] & 0x0F)
            if let previous = last[pid], counter != (previous + 1) & 0x0F {
                breaks.append("\(pid): \((previous + 1) & 0x0F) \(counter)")
            }
            last[pid] = counter
        }
        return breaks
    }

    /// The packets ffprobe reads from `file`: pts and duration in 90 kHz ticks; and what it
    /// said on stderr at warning level.
    static func packets(_ file: URL) throws -> (packets: [(pts: Int64, duration: Int64)], warnings: String) {
        let output = try Tool.run("ffprobe", ["-v", "warning", "-select_streams", "a:0", "-show_entries",
                                              "packet=pts,duration", "-of", "csv=p=0", file.path])
        let packets = output.text.split(separator: "\n").compactMap { line -> (Int64, Int64)? in
            let fields = line.split(separator: ",").compactMap { Int64($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
        return (packets, output.errors)
    }
}
