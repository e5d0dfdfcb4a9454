import Foundation

/// A channel's broadcast on disk, under the station's data folder
/// (`live/<channel>/`): each variant's segments as MPEG-TS files (`<kbps>/<sequence>.ts`),
/// the segments' list (`segments.jsonl`) and the songs aired (`aired.jsonl`), one JSON
/// object a line, appended as the broadcast goes. What is listed is what a restart
/// continues from: the media sequence goes on after the last segment listed.
///
/// A segment's files are written before its line, so a line never names a file that is not
/// there; a line cut short by a crash is skipped when read. Trimming rewrites the lists
/// (a new file renamed over the old) and removes the files of what it drops.
///
/// Used by one broadcast's thread at a time: not synchronised.
struct LiveArchive {
    /// The channel's folder.
    let directory: URL
    /// The variants' bit rates, one folder each.
    let bitrates: [Int]

    private var segmentList: URL { directory.appendingPathComponent("segments.jsonl") }
    private var airedList: URL { directory.appendingPathComponent("aired.jsonl") }

    /// The file of segment `sequence` of the variant at `kbps`.
    func file(kbps: Int, sequence: Int) -> URL {
        directory.appendingPathComponent("\(kbps)/\(sequence).ts")
    }

    /// What the folder holds: the segments whose files are all there and whose numbers are
    /// plausible (``LiveSegment/isPlausible``), and the songs aired, oldest first.
    func load() -> (segments: [LiveSegment], aired: [AiredRecord]) {
        let segments: [LiveSegment] = Self.read(segmentList).filter { segment in
            segment.isPlausible
                && bitrates.allSatisfy { FileManager.default.fileExists(atPath: file(kbps: $0, sequence: segment.sequence).path) }
        }
        return (segments, Self.read(airedList))
    }

    /// Writes a segment's files, then its line.
    func append(_ segment: LiveSegment, variants: [[UInt8]]) throws {
        for (kbps, bytes) in zip(bitrates, variants) {
            let url = file(kbps: kbps, sequence: segment.sequence)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        try Self.appendLine(segment, to: segmentList)
    }

    /// Adds a song to the songs aired.
    func append(_ song: AiredRecord) throws {
        try Self.appendLine(song, to: airedList)
    }

    /// Drops the segments that ended before `cutoff` (ms since the epoch) and the songs
    /// that started before the first segment kept; returns what is kept.
    func trim(_ segments: [LiveSegment], _ aired: [AiredRecord], before cutoff: Int64) throws
        -> (segments: [LiveSegment], aired: [AiredRecord]) {
        let dropped = segments.prefix { $0.end < cutoff }
        guard !dropped.isEmpty else { return (segments, aired) }
        let kept = Array(segments.dropFirst(dropped.count))
        // The song under way at the first segment kept stays: it is still partly there.
        let firstKept = kept.first?.start ?? Int64.max
        let keptSongs = aired.enumerated().filter { index, song in
            index + 1 < aired.count ? aired[index + 1].start > firstKept : true
        }.map(\.element)
        try Self.rewrite(kept, to: segmentList)
        try Self.rewrite(keptSongs, to: airedList)
        for segment in dropped {
            for kbps in bitrates { try? FileManager.default.removeItem(at: file(kbps: kbps, sequence: segment.sequence)) }
        }
        return (kept, keptSongs)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func read<Value: Decodable>(_ url: URL) -> [Value] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Value.self, from: Data($0)) }
    }

    private static func appendLine(_ value: some Encodable, to url: URL) throws {
        var line = try encoder.encode(value)
        line.append(UInt8(ascii: "\n"))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: url.path) {
            try line.write(to: url)
            return
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }

    private static func rewrite(_ values: [some Encodable], to url: URL) throws {
        var data = Data()
        for value in values {
            data.append(try encoder.encode(value))
            data.append(UInt8(ascii: "\n"))
        }
        try data.write(to: url, options: .atomic)
    }
}
