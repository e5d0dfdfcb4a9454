// libFuzzer entry point for the HLS playlist parser (not part of `swift build` or `swift
// test`): `script/fuzz playlist` compiles it with Sources/HLSPlaylist and -sanitize=fuzzer.
// Any input may be refused with a PlaylistError; none may crash, hang or leak.
import Foundation

/// libFuzzer calls this with each input: one playlist, as fetched from `base`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let base = URL(string: "http://fuzz.example/a/b/list.m3u8")!
    guard let playlist = try? PlaylistParser.parse(data, url: base) else { return 0 }
    switch playlist {
    case .master(let master):
        _ = master.choose(.kbps(128), audioLanguage: "en")
        _ = master.choose(.best)
        _ = master.choose(.worst)
    case .media(let media):
        try? media.checkDecryptable()
        _ = media.totalDuration
        _ = media.segments.map { $0.key?.ivHex }
    }
    return 0
}
