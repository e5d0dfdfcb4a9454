// libFuzzer entry point for the live client's playlist reading (not part of `swift build`
// or `swift test`): `script/fuzz live` compiles it with Sources/HLSPlaylist and the live
// window and timing of Sources/Radio/Live (modules of their own, as in mhz) and
// Sources/mhz/Live/LiveWindow+Playlist.swift, with -sanitize=fuzzer. Any playlist may be
// refused; none may crash, hang or leak on its way to a window and the edge worked out from it.
import Foundation
import HLSPlaylist
import Radio

/// libFuzzer calls this with each input: a live channel's media playlist as fetched from `base`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLive(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let base = URL(string: "http://fuzz.example/live/1/128.m3u8")!
    guard case .media(let media)? = try? PlaylistParser.parse(Data(bytes: bytes, count: count), url: base),
          let window = LiveWindow(playlist: media)
    else { return 0 }
    _ = window.joinLag
    let readAt = ContinuousClock.now
    let timing = LiveTiming(window: window, readAt: readAt)
    for later in [Duration.zero, .milliseconds(1500), .seconds(86_400 * 365)] {
        let now = readAt + later
        _ = timing.edge(at: now)
        for moment in [window.firstStart, window.joinStart, window.newestEnd, .min, .max, 0] {
            _ = timing.behind(moment, at: now)
        }
    }
    // A seek from where the window starts, by the playlist's own durations and past them.
    for seconds in media.segments.map(\.duration) + [1e300, -1e300, .nan, .infinity] {
        _ = LiveTiming.sum(window.firstStart, LiveTiming.milliseconds(seconds))
    }
    return 0
}
