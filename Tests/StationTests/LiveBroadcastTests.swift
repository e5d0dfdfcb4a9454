import Foundation
@testable import Station
import Testing
import TestSupport

/// The live broadcast (`/live/…`) through the real server: three AAC variants cut into
/// aligned MPEG-TS segments at the pace of the wall clock, decoded by the real ffmpeg and
/// ffprobe, songs changing inside the window without a break in the timestamps. Segments
/// last 1 s here (2 s in production) so that a test waits seconds.
@Suite("Live broadcast")
struct LiveBroadcastTests {
    /// Runs `body` with a started station over the live library and its channel's id.
    private func withStation(_ body: (Station, URL, String) async throws -> Void) async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url)
        let base = try await station.start()
        try await withCleanup {
            try await body(station, base, try await LiveFixtures.channel(base))
        } cleanup: {
            await station.stop()
        }
    }

    /// Whether AAC packets' timestamps (90 kHz) follow one another a frame apart: 1024
    /// samples at 44.1 kHz are 2089.8 ticks, and a PES carries the timestamp of its first
    /// frame only, the demuxer adding whole ticks for the frames after it, so a step is
    /// 2089 to 2091 and the last is where the sample clock puts it, give or take 2.
    static func continuous(_ pts: [Int64]) -> Bool {
        guard let first = pts.first, let last = pts.last else { return false }
        let steps = zip(pts, pts.dropFirst()).map { $1 - $0 }
        let expected = Double(pts.count - 1) * 1024 * 90000 / 44100
        return steps.allSatisfy { (2089...2091).contains($0) } && abs(Double(last - first) - expected) <= 2
    }

    /// Writes a segment fetched over HTTP to a file for ffprobe.
    private func fetchSegment(_ base: URL, _ channel: String, kbps: Int, sequence: Int, into folder: TemporaryDirectory) async throws -> URL {
        let answer = try await HTTPFetch.get(base, "/live/\(channel)/\(kbps)/\(sequence).ts")
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "video/mp2t")
        let file = folder.path("\(kbps)-\(sequence).ts")
        try answer.body.write(to: file)
        return file
    }

    @Test("the master lists 64, 128 and 192 kbit/s AAC; each variant lists the same dated, titled segments, out only once their time came")
    func masterAndVariants() async throws {
        try await withStation { _, base, channel in
            for refused in ["/live/0.m3u8", "/live/-3.m3u8", "/live/9999.m3u8", "/live/\(channel)/96.m3u8",
                            "/live/\(channel)/128/999999.ts"] {
                let answer = try await HTTPFetch.get(base, refused)
                #expect(answer.status == 404, "\(refused)")
            }
            let master = try await HTTPFetch.get(base, "/live/\(channel).m3u8")
            #expect(master.status == 200)
            #expect(master.headers["content-type"] == "application/vnd.apple.mpegurl")
            let lines = master.text.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") && $0.contains("CODECS=\"mp4a.40.2\"") }.count == 3)
            // What each variant declares it costs at most, in bit/s, in the variants' order.
            let declared = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.compactMap { line in
                line.firstMatch(of: /[:,]BANDWIDTH=([0-9]+)/).flatMap { Int($0.1) }
            }
            #expect(declared.count == 3)
            // Each variant's URI carries the listener id the master hands out, the same for all three.
            let uris = lines.filter { !$0.hasPrefix("#") }
            let id = String(try #require(uris.first?.split(separator: "=").last))
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
            #expect(uris == [64, 128, 192].map { "\(channel)/\($0).m3u8?listener=\(id)" })

            // A full window: three segments at once, then one a second.
            let window = try await LiveFixtures.waitFor(base, channel, "six segments") { $0.entries.count >= 6 }
            let fetchedAt = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(window.entries.count == 6)
            #expect(window.targetDuration == 1)
            #expect(!window.ended)
            let titles: Set<String> = ["Band Red - Red", "Band Green - Green", "Band Blue - Blue"]
            var previousEnd: Int64?
            for entry in window.entries {
                let start = try #require(LiveFixtures.milliseconds(entry.dateTime), "\(entry)")
                #expect(entry.duration > 0.95 && entry.duration < 1.1, "\(entry)")
                #expect(titles.contains(entry.title), "\(entry)")
                #expect(entry.uri == "128/\(entry.sequence).ts")
                // Published when its audio's end has come, not before.
                #expect(start + Int64(entry.duration * 1000) <= fetchedAt + 1, "\(entry) fetched at \(fetchedAt)")
                if let previousEnd { #expect(abs(start - previousEnd) <= 2, "\(entry)") }
                previousEnd = start + Int64((entry.duration * 1000).rounded())
            }

            // Every variant lists the same segments: same numbers, times, lengths and titles.
            let sequences = window.entries.map(\.sequence)
            for kbps in [64, 192] {
                let other = try await LiveFixtures.playlist(base, channel, kbps: kbps)
                for entry in other.entries where sequences.contains(entry.sequence) {
                    let same = try #require(window.entries.first { $0.sequence == entry.sequence })
                    #expect(entry.dateTime == same.dateTime && entry.duration == same.duration && entry.title == same.title)
                    #expect(entry.uri == "\(kbps)/\(entry.sequence).ts")
                }
            }

            // The segments line up: each variant's packets start at the same instants, and
            // each segment's first packet follows the previous segment's last.
            let folder = try TemporaryDirectory(prefix: "mhz-live-segments")
            defer { folder.remove() }
            var sizes: [Int: Int] = [:]
            var firstPackets: [[Int64]] = []
            for kbps in [64, 128, 192] {
                var pts: [Int64] = []
                for sequence in sequences.prefix(4) {
                    let file = try await fetchSegment(base, channel, kbps: kbps, sequence: sequence, into: folder)
                    let bytes = try Data(contentsOf: file).count
                    sizes[kbps, default: 0] += bytes
                    // No segment costs more than its variant's BANDWIDTH (RFC 8216 §4.3.4.2).
                    let length = try #require(window.entries.first { $0.sequence == sequence }?.duration)
                    let bandwidth = declared.count == 3 ? declared[[64, 128, 192].firstIndex(of: kbps) ?? 0] : 0
                    #expect(Double(bytes * 8) / length <= Double(bandwidth), "\(kbps)/\(sequence).ts: \(bytes) bytes in \(length) s")
                    let read = try await offPool { try LiveFixtures.packets(file) }
                    #expect(read.warnings.isEmpty, "\(read.warnings)")
                    pts.append(contentsOf: read.packets.map(\.pts))
                    firstPackets.append([Int64(kbps), Int64(sequence), read.packets.first?.pts ?? -1])
                }
                #expect(Self.continuous(pts), "\(kbps): \(zip(pts, pts.dropFirst()).map { $1 - $0 })")
                let stream = try await offPool {
                    try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,profile,sample_rate,channels",
                                             "-of", "csv=p=0", folder.path("\(kbps)-\(sequences[0]).ts").path]).text
                }
                // One line for the program's stream, one for the stream.
                #expect(Set(stream.split(separator: "\n").map(String.init)) == ["aac,LC,44100,2"], "\(stream)")
            }
            for sequence in sequences.prefix(4) {
                let starts = Set(firstPackets.filter { $0[1] == Int64(sequence) }.map { $0[2] })
                #expect(starts.count == 1, "segment \(sequence) starts at \(starts)")
            }
            #expect(sizes[64]! < sizes[128]! && sizes[128]! < sizes[192]!, "\(sizes)")
        }
    }

    @Test("ffmpeg decodes the live window across a song change without an error, its timestamps continuous")
    func ffmpegAcrossSongs() async throws {
        try await withStation { _, base, channel in
            let window = try await LiveFixtures.waitFor(base, channel, "a song change in the window") { list in
                list.entries.count >= 4 && Set(list.entries.map(\.title)).count >= 2
            }
            // The window's segments one after the other, as a client reads them.
            var joined = Data()
            for entry in window.entries {
                let answer = try await HTTPFetch.get(base, "/live/\(channel)/\(entry.uri)")
                #expect(answer.status == 200)
                joined.append(answer.body)
            }
            let folder = try TemporaryDirectory(prefix: "mhz-live-join")
            defer { folder.remove() }
            let file = folder.path("window.ts")
            try joined.write(to: file)
            // Each segment's muxer continues the counters of the one before.
            #expect(LiveFixtures.continuityBreaks(joined) == [])
            let read = try await offPool { try LiveFixtures.packets(file) }
            #expect(read.warnings.isEmpty, "\(read.warnings)")
            let pts = read.packets.map(\.pts)
            #expect(Self.continuous(pts), "\(zip(pts, pts.dropFirst()).map { $1 - $0 })")
            #expect(read.packets.count > Int(Double(window.entries.count) * 43))

            // ffmpeg as a live client, from the window's first segment, through the master.
            let decoded = try await offPool {
                try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning", "-live_start_index", "0",
                                        "-i", base.appendingPathComponent("live/\(channel).m3u8").absoluteString,
                                        "-map", "0:a:0", "-t", "3", "-f", "null", "-"])
            }
            #expect(decoded.status == 0)
            #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        }
    }

    @Test("begintime starts a playlist at that moment and goes on live; with endtime it is a VOD of those seconds; outside what is kept 404, garbage 400")
    func lookBack() async throws {
        try await withStation { _, base, channel in
            let window = try await LiveFixtures.waitFor(base, channel, "six segments") { $0.entries.count >= 6 }
            let e = window.entries
            let begin = try #require(LiveFixtures.milliseconds(e[1].dateTime)) + 10
            let end = try #require(LiveFixtures.milliseconds(e[4].dateTime)) + 10

            let vod = try await LiveFixtures.playlist(base, channel, query: "begintime=\(begin)&endtime=\(end)")
            #expect(vod.ended && vod.vod)
            #expect(vod.entries.map(\.sequence) == Array(e[1].sequence...e[4].sequence))
            #expect(vod.entries.map(\.dateTime) == Array(e[1...4].map(\.dateTime)))

            let fromThen = try await LiveFixtures.playlist(base, channel, query: "begintime=\(begin)")
            #expect(!fromThen.ended && fromThen.startTag)
            #expect(fromThen.entries.first?.sequence == e[1].sequence)

            // The master carries the range to its variants, and ffprobe reads the VOD's length.
            let master = try await HTTPFetch.get(base, "/live/\(channel).m3u8?begintime=\(begin)&endtime=\(end)")
            #expect(master.text.contains("\(channel)/128.m3u8?begintime=\(begin)&endtime=\(end)&listener="))
            let seconds = try await offPool {
                try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                         base.appendingPathComponent("live/\(channel)/128.m3u8").absoluteString
                                             + "?begintime=\(begin)&endtime=\(end)"]).text
            }
            let expected = e[1...4].map(\.duration).reduce(0, +)
            #expect(abs((Double(seconds.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - expected) < 0.1, "\(seconds)")

            // Before what is kept: 404 naming what is.
            let early = try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8?begintime=\(begin - 3_600_000)")
            #expect(early.status == 404)
            let refusal = try early.jsonObject()
            #expect(refusal["err"] as? String == "out_of_range")
            let available = try #require(refusal["available"] as? [String: Any])
            let first = try #require((available["begintime"] as? NSNumber)?.int64Value)
            let last = try #require((available["endtime"] as? NSNumber)?.int64Value)
            #expect(first <= LiveFixtures.milliseconds(e[0].dateTime)!)
            #expect(last >= end)
            #expect(try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8?begintime=\(first)").status == 200)
            // After it: the future is not kept either.
            let future = try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8?begintime=\(begin)&endtime=\(last + 600_000)")
            #expect(future.status == 404)

            for garbage in ["begintime=yesterday", "begintime=", "begintime=12abc", "endtime=\(end)",
                            "begintime=\(end)&endtime=\(begin)"] {
                let answer = try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8?\(garbage)")
                #expect(answer.status == 400, "\(garbage)")
                let word = try answer.jsonObject()["err"] as? String
                #expect(word == "bad_begintime" || word == "bad_endtime", "\(garbage)")
            }
            #expect(try await HTTPFetch.get(base, "/live/\(channel).m3u8?begintime=yesterday").status == 400)
        }
    }

    @Test("aired.json lists the songs aired newest first, each with a VOD playlist of exactly its segments")
    func aired() async throws {
        try await withStation { _, base, channel in
            // Three songs started: two over, one on the air.
            _ = try await LiveFixtures.waitFor(base, channel, "three songs") { Set($0.entries.map(\.title)).count >= 3 }
            let answer = try await HTTPFetch.get(base, "/live/\(channel)/aired.json")
            #expect(answer.status == 200)
            let songs = try #require(try answer.jsonObject()["songs"] as? [[String: Any]])
            #expect(songs.count >= 3)
            let starts = songs.compactMap { ($0["start"] as? NSNumber)?.int64Value }
            let ends = songs.compactMap { ($0["end"] as? NSNumber)?.int64Value }
            #expect(starts == starts.sorted(by: >))
            #expect(zip(starts, ends).allSatisfy { $0 < $1 })
            // Back to back: each ends where the next (newer) one starts.
            for index in 1..<songs.count { #expect(ends[index] == starts[index - 1]) }
            #expect(songs[0]["on_air"] as? Bool == true)
            #expect((songs[0]["url"] as? String)?.hasSuffix("/live/\(channel).m3u8?begintime=\(starts[0])") == true)
            for song in songs {
                #expect(["Red", "Green", "Blue"].contains(song["title"] as? String ?? ""))
                #expect(song["artist"] as? String == "Band \(song["title"] as? String ?? "")")
                #expect((song["sid"] as? String)?.isEmpty == false)
            }

            let past = songs[1]
            let url = try #require(past["url"] as? String)
            #expect(url == "\(base.absoluteString)/live/\(channel).m3u8?begintime=\(starts[1])&endtime=\(ends[1])")
            let master = try await HTTPFetch.get(try #require(URL(string: url)))
            #expect(master.status == 200)
            let variant = try await LiveFixtures.playlist(base, channel, query: "begintime=\(starts[1])&endtime=\(ends[1])")
            #expect(variant.ended)
            let first = try #require(variant.entries.first)
            let last = try #require(variant.entries.last)
            // Exactly its segments: the first holds its start, the last its end.
            #expect(LiveFixtures.milliseconds(first.dateTime)! <= starts[1])
            #expect(LiveFixtures.milliseconds(first.dateTime)! + Int64(first.duration * 1000) > starts[1])
            #expect(LiveFixtures.milliseconds(last.dateTime)! < ends[1])
            #expect(LiveFixtures.milliseconds(last.dateTime)! + Int64(last.duration * 1000) >= ends[1] - 1)
            #expect(variant.entries.allSatisfy { $0.title == "Band \(past["title"] as! String) - \(past["title"] as! String)" || $0 == first })
        }
    }

    @Test("clients that stop reading a segment, and ones that leave in the middle of one, hold up nobody: the broadcast and the others go on")
    func stalledAndVanishingClients() async throws {
        try await withStation { _, base, channel in
            let window = try await LiveFixtures.waitFor(base, channel, "three segments") { $0.entries.count >= 3 }
            let port = try #require(base.port)
            let target = "/live/\(channel)/192/\(window.entries[0].sequence).ts"
            // Stalled: the answer backs up in a 4 KiB receive buffer.
            var stalled: [Int32] = []
            defer { for socket in stalled { close(socket) } }
            for _ in 0..<20 { stalled.append(try RawHTTP.sendWithoutReading(port: port, target: target)) }
            // Gone after the first bytes.
            for _ in 0..<10 {
                let head = try await RawHTTP.firstBodyBytes(port: port, target: target) {}
                #expect(String(decoding: head.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
            }
            // Three more segments come out, each whole for a client that reads.
            let last = try #require(window.entries.last?.sequence)
            let later = try await LiveFixtures.waitFor(base, channel, "three more segments") { ($0.entries.last?.sequence ?? 0) >= last + 3 }
            for entry in later.entries.suffix(3) {
                let segment = try await HTTPFetch.get(base, "/live/\(channel)/\(entry.uri)")
                #expect(segment.status == 200 && segment.body.count > 188 * 10)
                #expect(LiveFixtures.continuityBreaks(segment.body) == [])
            }
        }
    }

    @Test("a station restarted on the same data goes on from the last segment, after a discontinuity only when time went by; a channel left alone goes off the air, and asked for again once more time went by than a run's prefill it goes on after a discontinuity")
    func restartAndIdle() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-restart")
        defer { data.remove() }
        let first = try await LiveFixtures.station(data: data.url)
        let base = try await first.start()
        let channel = try await LiveFixtures.channel(base)
        let before = try await LiveFixtures.waitFor(base, channel, "four segments") { $0.entries.count >= 4 }
        await first.stop()
        let stored = try #require(first.liveHub.broadcast(channel)?.snapshot.segments.last)
        #expect(stored.sequence >= before.entries.last!.sequence)

        let second = try await LiveFixtures.station(data: data.url) { $0.live.idleTimeout = .milliseconds(1500) }
        let again = try await second.start()
        try await withCleanup {
            let after = try await LiveFixtures.waitFor(again, channel, "the next run") { list in
                list.entries.contains { $0.sequence > stored.sequence }
            }
            let resumed = try #require(after.entries.first { $0.sequence == stored.sequence + 1 })
            #expect(zip(after.entries, after.entries.dropFirst()).allSatisfy { $1.sequence == $0.sequence + 1 })
            // Its time goes on from where the last run stopped: at that moment when the
            // restart took less than the prefill's time (LiveRestartTests makes sure of that
            // one), else with a discontinuity.
            let resumedStart = try #require(LiveFixtures.milliseconds(resumed.dateTime))
            let seamless = resumedStart == stored.end
            #expect(resumedStart >= stored.end)
            #expect(resumed.discontinuity == !seamless)
            #expect(after.discontinuities == (seamless ? 0 : 1))
            // ffmpeg plays on across the restart: the look-back of the seconds around it.
            let oldStart = try #require(LiveFixtures.milliseconds(before.entries.last!.dateTime))
            let newStart = try #require(LiveFixtures.milliseconds(resumed.dateTime))
            let range = "begintime=\(oldStart)&endtime=\(newStart + 500)"
            let around = try await LiveFixtures.playlist(again, channel, query: range)
            #expect(around.ended)
            #expect(around.entries.map(\.sequence) == Array(before.entries.last!.sequence...resumed.sequence))
            #expect(around.entries.map(\.discontinuity) == around.entries.map { !seamless && $0.sequence == resumed.sequence })
            let decoded = try await offPool {
                try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning",
                                        "-i", again.appendingPathComponent("live/\(channel)/128.m3u8").absoluteString + "?" + range,
                                        "-map", "0:a:0", "-f", "null", "-"])
            }
            #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(decoded.errors)")

            // Nobody asks for 1.5 s: the broadcast ends by itself.
            let broadcast = try #require(second.liveHub.broadcast(channel))
            try await waitUntil("the channel to go off the air by itself", within: .seconds(60)) { !broadcast.snapshot.onAir }
            let idleLast = try #require(broadcast.snapshot.segments.last)
            // Asked for again once more time went by than a run's first segments are dated
            // back: a break in time, after a discontinuity.
            let breakAt = idleLast.end + Int64(LiveConfiguration.prefill) * 1000
            try await waitUntil("the prefill's time gone by", within: .seconds(30)) { LiveBroadcast.now() > breakAt }
            let revived = try await LiveFixtures.waitFor(again, channel, "a third run") { list in
                list.entries.contains { $0.sequence > idleLast.sequence }
            }
            #expect(revived.entries.first { $0.sequence == idleLast.sequence + 1 }?.discontinuity == true)
            // Every interruption so far is counted, whether the window still shows it or not
            // (a slow client can let the channel go idle more than once on the way).
            let interruptions = broadcast.snapshot.segments.filter(\.discontinuity).count
            #expect(interruptions >= 1)
            #expect(revived.discontinuities == interruptions, "\(revived)")
        } cleanup: {
            await second.stop()
        }
    }
}

/// The look-back kept on disk: segments older than `lookback` go, files and lines, and what
/// is asked before what is kept is refused naming what is.
@Suite("Live look-back trimming")
struct LiveTrimTests {
    @Test("with a 4 s look-back, the oldest segments' files and lines are removed as the broadcast goes on")
    func trimmed() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-trim")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url) { $0.live.lookback = .seconds(4) }
        let base = try await station.start()
        // Stopped however the checks end: then the broadcast's thread has ended, and the
        // folder holds what it left.
        let channel = try await withCleanup {
            let channel = try await LiveFixtures.channel(base)
            // A run's first segment ends 2 s before the run starts (its first three are dated back);
            // a trim comes with the first segment published once that end is past the
            // look-back and a tenth: segment 5, due 3 s after the start, or an earlier one
            // when the broadcast runs late. Segment 6 listed is after that publication.
            let window = try await LiveFixtures.waitFor(base, channel, "segment 6") { ($0.entries.last?.sequence ?? 0) >= 6 }
            let gone = try await HTTPFetch.get(base, "/live/\(channel)/128/0.ts")
            #expect(gone.status == 404)
            // A number no segment has, however far from the listed ones, is not found either.
            for sequence in ["-9223372036854775808", "-1", "9223372036854775807"] {
                #expect(try await HTTPFetch.get(base, "/live/\(channel)/128/\(sequence).ts").status == 404, "\(sequence)")
            }
            let start = try #require(LiveFixtures.milliseconds(window.entries.last!.dateTime))
            let early = try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8?begintime=\(start - 20_000)&endtime=\(start)")
            #expect(early.status == 404)
            let available = try #require(try early.jsonObject()["available"] as? [String: Any])
            #expect(((available["begintime"] as? NSNumber)?.int64Value ?? 0) > start - 20_000)
            return channel
        } cleanup: {
            await station.stop()
        }
        let folder = data.url.appendingPathComponent("live/\(channel)")
        let index = try String(contentsOf: folder.appendingPathComponent("segments.jsonl"), encoding: .utf8)
        let listed = index.split(separator: "\n").compactMap { line -> Int? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["sequence"] as? NSNumber)?.intValue
        }
        // Each publication keeps what ends within the look-back and a tenth of it before
        // that moment, and no segment ends after it: five segments of 1 s at most.
        let oldest = try #require(listed.first)
        #expect(oldest > 0 && listed.count <= 6, "\(listed)")
        #expect(listed == Array(oldest...(listed.last ?? oldest)))
        for kbps in [64, 128, 192] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("\(kbps)").path)
            #expect(Set(files) == Set(listed.map { "\($0).ts" }), "\(kbps): \(files.sorted())")
        }
    }
}
