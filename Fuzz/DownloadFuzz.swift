// libFuzzer entry point for an HLS download's planning and arithmetic (not part of `swift
// build` or `swift test`): `script/fuzz download` compiles it with Sources/HLSPlaylist (a
// module of its own), HLSPlan.swift and HLSJobArithmetic.swift, and -sanitize=fuzzer.
// Any playlist may be refused; none may crash, hang or leak on its way to a plan and
// through the numbers a transfer works out from it.
import Foundation
import HLSPlaylist

/// libFuzzer calls this with each input: a playlist as fetched from `base`; when it is a
/// master playlist, what follows a second `#EXTM3U` is the media playlist of the variant
/// (or rendition) chosen from it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDownload(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let base = URL(string: "http://fuzz.example/a/b/list.m3u8")!
    let header = Data("#EXTM3U".utf8)
    var head = data, tail: Data?
    if let first = data.range(of: header), let second = data.range(of: header, in: first.upperBound..<data.endIndex) {
        head = data[data.startIndex..<second.lowerBound]
        tail = data[second.lowerBound...]
    }
    guard let playlist = try? PlaylistParser.parse(head, url: base) else { return 0 }
    let plan: HLSPlan
    switch playlist {
    case .media(let media):
        plan = HLSPlan(master: nil, choice: nil, mediaURL: base, media: media)
    case .master(let master):
        for quality in [VariantQuality.best, .worst, .kbps(1), .kbps(128), .kbps(Int.max)] {
            _ = master.choose(quality, audioLanguage: "en")
            _ = master.choose(quality)
        }
        guard let choice = master.choose(.kbps(128), audioLanguage: "en"), let tail else { return 0 }
        let target = choice.audio?.uri ?? choice.variant.uri
        guard case .media(let media)? = try? PlaylistParser.parse(tail, url: target) else { return 0 }
        plan = HLSPlan(master: master, choice: choice, mediaURL: target, media: media)
    }
    _ = plan.fileExtension
    _ = plan.media.totalDuration
    _ = plan.media.segments.map { ($0.key?.ivHex, $0.map?.key?.ivHex) }
    guard (try? plan.media.checkDecryptable()) != nil else { return 0 }
    // A recording's length as `--duration` or a stored row may hold it.
    for limit in [nil, 30, 1e308, .infinity, .nan, -1, 0] as [Double?] { transfer(plan.media, limit: limit) }
    return 0
}

/// The numbers an HLS transfer works out, appending every segment it would fetch: each
/// piece a TS packet, or its byte range's length (held to what one segment's file could be).
private func transfer(_ media: MediaPlaylist, limit: Double?) {
    var next = media.segments.first?.sequence ?? media.mediaSequence
    var done = 0, bytes: Int64 = 0, recorded = 0.0
    let total = media.isLive ? limit : media.totalDuration
    for segment in HLSJobArithmetic.pending(media, from: next, recorded: recorded, limit: limit) {
        next = segment.sequence + 1
        done += 1
        bytes += min(segment.byteRange?.length ?? 188, 1 << 24)
        recorded += segment.duration
        precondition(HLSJobArithmetic.isPlausible(segmentsDone: done, bytes: bytes, recordedSeconds: recorded, periodStarts: [bytes]))
        if let estimate = HLSJobArithmetic.estimate(bytes: bytes, recorded: recorded, of: total) { precondition(estimate >= bytes) }
    }
    for unchanged in [0, 1, Int.max] { _ = HLSJobArithmetic.reloadWait(media, unchangedReloads: unchanged) }
    if let first = media.segments.first?.sequence {
        for stored in [next, 0, Int.min, Int.max, -first] { precondition(HLSJobArithmetic.missed(first: first, next: stored) >= 0) }
    }
}
