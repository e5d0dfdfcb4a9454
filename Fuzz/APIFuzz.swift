// libFuzzer entry point for RadioAPI's answer decoders, both families (not part of `swift
// build` or `swift test`): `script/fuzz api` compiles it with Sources/RadioAPI and
// -sanitize=fuzzer. Every decoder reads the same bytes, as any answer may arrive at any
// request: each may refuse them with an APIError, none may crash, hang or leak.
import Foundation

/// libFuzzer calls this with each input: one answer body, fed to every decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnswers(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let body = Data(bytes: bytes, count: count)
    for type in [ReportType.new, .end] {
        if let playlist = try? APIDecoder.playlist(body, for: type) { checkRoundTrip(playlist, type: type) }
    }
    _ = try? APIDecoder.channels(body)
    _ = try? APIDecoder.appLogin(body)
    _ = try? APIDecoder.webLogin(body)
    _ = try? APIDecoder.captchaID(body)
    return 0
}

/// The station answers with `JSONEncoder` over these models and the client reads that with
/// `APIDecoder`, so whatever decodes must encode and decode back to itself. A rating that
/// JSON cannot carry (`"rating_avg":"nan"`) makes the encoder throw; that is no round trip.
private func checkRoundTrip(_ playlist: SongList, type: ReportType) {
    guard playlist.songs.allSatisfy({ $0.ratingAverage?.isFinite ?? true }),
          let encoded = try? JSONEncoder().encode(playlist)
    else { return }
    let again: SongList
    do {
        again = try APIDecoder.playlist(encoded, for: type)
    } catch {
        fatalError("the encoded playlist does not decode: \(error)\n\(String(decoding: encoded, as: UTF8.self))")
    }
    guard again == playlist else {
        fatalError("round trip changed the playlist:\n\(playlist)\n\(again)")
    }
}
