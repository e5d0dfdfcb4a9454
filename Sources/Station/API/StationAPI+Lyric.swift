import Foundation
import MusicLibrary
import RadioAPI

extension StationAPI {
    /// `POST|GET /v2/fm/lyric` (and the web family's `GET /j/v2/lyric`) with `sid` and `ssid`
    /// (from the form body or the query): Douban's lyric call (docs/PROTOCOL.md §10), answered
    /// `{"lyric":"<LRC text>","name":"<title>","sid":"<sid>"}` from the track's sidecar
    /// `NAME.lrc` or its embedded lyrics (``TrackLyrics``). A song without lyrics, and a
    /// sid the library does not have, answer an empty `lyric` (with an empty `name` for
    /// the unknown sid); a missing `sid` is 400 `{"r":1,"err":"missing_sid"}`. The ssid is
    /// read but not required to match: the sid alone names a track of this station.
    func lyric(query: String?, body: Data) async -> StationReply {
        let pairs = (query.map { FormEncoding.decode($0) } ?? []) + FormEncoding.decode(String(decoding: body, as: UTF8.self))
        guard let sid = pairs.first(where: { $0.0 == "sid" })?.1, !sid.isEmpty else {
            return JSONResponse.error("missing_sid", status: 400)
        }
        guard let track = services.library.snapshot.track(sid: sid) else {
            return JSONResponse.reply(SongLyric(lyric: "", name: "", sid: sid))
        }
        let file = track.file
        // Reading the sidecar and the tags blocks: off the cooperative pool.
        let text = await Blocking.run { () -> String? in TrackLyrics.find(for: file) }
        return JSONResponse.reply(SongLyric(lyric: text ?? "", name: track.title, sid: sid))
    }
}
