import Foundation
import MusicLibrary
@testable import Station
import Testing
import TestSupport

/// One rule for `Range` (RFC 9110 §14.2), the same on an original file, a cover, a
/// transcode being made and the finished transcode: an invalid range is ignored (200,
/// the whole body), one that overlaps nothing is 416 with `Content-Range: bytes */LEN`,
/// otherwise the first range that overlaps is a 206.
@Suite("Range rule")
struct RangeRuleTests {
    /// What one answer to a range says: its status, `Content-Range`, and the bytes.
    struct Outcome: Equatable, CustomStringConvertible {
        var status: Int
        var contentRange: String?
        var body: Data

        var description: String { "\(status) \(contentRange ?? "-") \(body.count) bytes" }
    }

    /// Asks `url` for `range`; the answer and whether the file middleware gave it (an
    /// `ETag`: the transcode stream sends none, nor does a 416, which the file middleware
    /// never sees).
    static func ask(_ url: URL, _ range: String) async throws -> (outcome: Outcome, fromFile: Bool) {
        let answer = try await HTTPFetch.get(url, headers: ["Range": range])
        return (Outcome(status: answer.status, contentRange: answer.headers["content-range"], body: answer.body),
                answer.headers["etag"] != nil)
    }

    /// What the rule says of `range` over `bytes`.
    static func expected(_ range: String, of bytes: Data) -> Outcome {
        let length = bytes.count
        switch range {
        case "bytes=5-2", "items=0-1", "bytes=0-1,x":
            return Outcome(status: 200, contentRange: nil, body: bytes)
        case "bytes=\(length)-", "bytes=-0", "bytes=999999999999999999999999-":
            return Outcome(status: 416, contentRange: "bytes */\(length)", body: Data(#"{"err":"range_not_satisfiable","r":1}"#.utf8))
        case "bytes=\(length)-, 2-3", "BYTES=2-3":
            return Outcome(status: 206, contentRange: "bytes 2-3/\(length)", body: bytes[2...3])
        case "bytes=-5":
            return Outcome(status: 206, contentRange: "bytes \(length - 5)-\(length - 1)/\(length)", body: bytes.suffix(5))
        default:
            return Outcome(status: 0, contentRange: nil, body: Data())
        }
    }

    static func ranges(length: Int) -> [String] {
        ["bytes=5-2", "items=0-1", "bytes=0-1,x", "bytes=\(length)-", "bytes=-0", "bytes=999999999999999999999999-",
         "bytes=\(length)-, 2-3", "BYTES=2-3", "bytes=-5"]
    }

    /// The finished transcode, once its job renamed it into place (the job runs on; this
    /// waits for that, not for time).
    static func finished(_ station: Station, _ name: String) async throws -> Data {
        let file = station.configuration.dataDirectory.appendingPathComponent("transcoded/\(name)")
        try await waitUntil("\(name) was never finished", within: .seconds(60)) {
            FileManager.default.fileExists(atPath: file.path)
        }
        return try Data(contentsOf: file)
    }

    @Test("originals and covers: bytes=5-2 is ignored (200 whole), bytes=LEN- and -0 are 416 bytes */LEN, a later range that fits is served")
    func files() async throws {
        try await StationFixtures.withDemoStation(library: try await LiveFixtures.library) { station, base in
            let tracks = station.servedLibrary.tracks
            #expect(tracks.count == 3)
            for track in tracks {
                let bytes = try Data(contentsOf: track.file)
                let url = try #require(URL(string: "\(base.absoluteString)/media/\(track.sid).\(track.fileExtension)"))
                for range in Self.ranges(length: bytes.count) {
                    let (outcome, fromFile) = try await Self.ask(url, range)
                    #expect(fromFile || outcome.status == 416)
                    #expect(outcome == Self.expected(range, of: bytes), "\(track.fileExtension) \(range): \(outcome)")
                }
            }
            let people = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=")
            let picture = try #require((try people.jsonObject()["song"] as? [[String: Any]])?.first?["picture"] as? String)
            let cover = try await HTTPFetch.get(try #require(URL(string: picture)))
            #expect(cover.status == 200 && cover.body.count > 5)
            for range in Self.ranges(length: cover.body.count) {
                let (outcome, _) = try await Self.ask(try #require(URL(string: picture)), range)
                #expect(outcome == Self.expected(range, of: cover.body), "cover \(range): \(outcome)")
            }
        }
    }

    @Test("a transcode answers as its finished file does, from its first request on: bytes=5-2 200 whole, bytes=-0 and a first byte past the end 416 bytes */LEN")
    func transcodes() async throws {
        try await StationFixtures.withDemoStation(library: try await LiveFixtures.library) { station, base in
            let tracks = station.servedLibrary.tracks
            // Each song at each rate is a transcode of its own, begun by the first request
            // for it: that request is answered while it is made, whatever the machine's pace.
            let firsts = ["bytes=5-2", "bytes=-0", "bytes=999999999999999999999999-"]
            var asked: [(name: String, url: URL, range: String, outcome: Outcome)] = []
            for (index, track) in tracks.enumerated() {
                for (offset, kbps) in [64, 128, 192].enumerated() {
                    let name = "\(track.sid)-\(kbps)k.mp3"
                    let url = try #require(URL(string: "\(base.absoluteString)/media/\(name)"))
                    let range = firsts[(index + offset) % firsts.count]
                    let (outcome, fromFile) = try await Self.ask(url, range)
                    #expect(!fromFile, "\(name) \(range) was not the first request of its transcode")
                    asked.append((name, url, range, outcome))
                }
            }
            for (name, url, range, first) in asked {
                let bytes = try await Self.finished(station, name)
                #expect(first == Self.expected(range, of: bytes), "\(name) \(range) while made: \(first)")
                for other in Self.ranges(length: bytes.count) {
                    let (outcome, fromFile) = try await Self.ask(url, other)
                    #expect(fromFile || outcome.status == 416)
                    #expect(outcome == Self.expected(other, of: bytes), "\(name) \(other) finished: \(outcome)")
                }
            }
        }
    }

    @Test("Range headers read against a known length: every form of RFC 9110 §14.1.2, ill-formed ones ignored, none overlapping unsatisfiable")
    func parser() {
        let length = 1000
        #expect(ByteRange(header: "bytes=5-2", length: length) == .whole)
        #expect(ByteRange(header: "bytes=0-1,5-2", length: length) == .whole)
        #expect(ByteRange(header: "bytes=1-2 ", length: length) == .part(1...2))
        #expect(ByteRange(header: "Bytes=1-2", length: length) == .part(1...2))
        #expect(ByteRange(header: "bytes=1000-,-0, 7-8", length: length) == .part(7...8))
        #expect(ByteRange(header: "bytes=,1-2,", length: length) == .part(1...2))
        #expect(ByteRange(header: "bytes=,", length: length) == .whole)
        #expect(ByteRange(header: "bytes=１-2", length: length) == .whole)
        #expect(ByteRange(header: "bytes=1 -2", length: length) == .whole)
        #expect(ByteRange(header: "bytes=99999999999999999999999-", length: length) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-99999999999999999999999", length: length) == .part(0...999))
        #expect(ByteRange(header: "bytes=-99999999999999999999999", length: length) == .part(0...999))
        #expect(ByteRange(header: "bytes=1000-,-0", length: length) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-", length: 0) == .unsatisfiable)
    }
}
