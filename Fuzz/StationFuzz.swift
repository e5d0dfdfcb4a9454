// libFuzzer entry point for the station's request parsing (not part of `swift build` or
// `swift test`): `script/fuzz station` compiles it with StationRequest.swift and
// AppLoginForm.swift against Sources/RadioAPI (FormEncoding, ReportHistory), all with
// -sanitize=fuzzer. The input is a query string or form body, as any client may send.
// Nothing may crash, and the round trips the client and the station rely on must hold.
import Foundation
import RadioAPI

/// libFuzzer calls this with each input: a query string or form body, as UTF-8 (repaired).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)

    // The query and the form body: decoded pairs escape and decode back to themselves.
    let pairs = FormEncoding.decode(text)
    let again = FormEncoding.decode(FormEncoding.encode(pairs))
    guard again.elementsEqual(pairs, by: { $0 == $1 }) else {
        fatalError("form pairs changed on the way back:\n\(pairs)\n\(again)")
    }
    let request = StationRequest(method: "GET", path: "/j/app/radio/people", rawQuery: text)
    let form = AppLoginForm(pairs: pairs)
    _ = (form.isSupportedClient, form.account, request.nonEmptyParameter("channel"))

    // `h`, as the station reads it from the query and as the client's outbox reads back
    // what it wrote: entries parsed write out and parse back unchanged. A sid holding the
    // separator `|` cannot (the wire form has no escape); clients send digits.
    checkHistory(request.parameter("h") ?? "")
    checkHistory(text)
    return 0
}

private func checkHistory(_ wire: String) {
    let entries = ReportHistory.parse(wire)
    let writable = entries.filter { !$0.sid.unicodeScalars.contains("|") }
    let back = ReportHistory.parse(ReportHistory.wireForm(writable))
    guard back == writable else {
        fatalError("h changed on the way back: \(String(reflecting: wire))\n\(writable)\n\(back)")
    }
    var ring = ReportHistory(capacity: 20)
    for entry in entries { ring.record(sid: entry.sid, type: entry.type) }
    _ = ring.encoded
}
