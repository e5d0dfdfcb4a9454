import Foundation
import RadioAPI

/// The answers of the `/live/…` routes (docs/PROTOCOL.md §12), from a ``LiveHub``:
///
/// - `GET /live/<channel>.m3u8` → the master playlist (``LivePlaylist/master(channel:query:segmentDuration:)``)
/// - `GET /live/<channel>/<kbps>.m3u8` → a variant's live playlist: the last
///   ``LiveConfiguration/window`` segments; with `begintime=<ms>`, every segment from that
///   moment on; with `endtime=<ms>` too, a VOD of the range
/// - `GET /live/<channel>/<kbps>/<sequence>.ts` → a segment
/// - `GET /live/<channel>/aired.json` → the songs aired, newest first
/// - `POST /live/<channel>/feedback` → a listener's like, unlike, skip or trash, and the
///   tally of the votes to skip the song on the air
///
/// Every request for a channel starts the broadcast and keeps it on the air. A listener,
/// whose feedback counts, is an id the master playlist hands out (carried on to the
/// variants' URIs as `listener=<id>`) or an account (``LiveAudience``).
struct LiveAnswers: Sendable {
    /// The channels.
    let hub: LiveHub
    /// The account a feedback's credentials (app `user_id` and `token`, or the web
    /// session's cookie) log in, as its profile key; `nil` without valid ones.
    var account: @Sendable (StationRequest, RequestOrigin) async -> String? = { _, _ in nil }

    /// `application/vnd.apple.mpegurl`, RFC 8216's media type for playlists.
    static let playlistType = "application/vnd.apple.mpegurl"

    /// Answers `path` (starting `/live/`) with its `query` (and a POST's form `body`);
    /// `base` is the server root as the client named it, for `aired.json`'s links; `origin`
    /// the client's address (the pace of feedback from strangers) and cookies.
    func respond(method: String = "GET", path: String, query: String?, body: Data = Data(), base: String,
                 origin: RequestOrigin = .inProcess) async -> StationReply {
        let parts = path.dropFirst("/live/".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let request = StationRequest(method: method, path: path, rawQuery: query)
        let listener = request.nonEmptyParameter("listener").flatMap { LiveAudience.isID($0.utf8) ? $0 : nil }
        if method == "POST" {
            guard parts.count == 2, parts[1] == "feedback", let broadcast = hub.broadcast(parts[0]) else { return Self.notFound }
            // A form body, or (docs/PROTOCOL.md §11) the query when the body is empty.
            let form = body.isEmpty ? request : StationRequest(method: method, path: path, rawQuery: String(decoding: body, as: UTF8.self))
            return await feedback(broadcast, form: form, origin: origin)
        }
        switch parts.count {
        case 1 where parts[0].hasSuffix(".m3u8"):
            let channel = String(parts[0].dropLast(".m3u8".count))
            guard let broadcast = hub.broadcast(channel) else { return Self.notFound }
            await broadcast.listen()
            if let refusal = Self.range(query, of: broadcast.snapshot.segments).refusal { return refusal }
            // The listener's id: the one it was handed before, while the station keeps it,
            // else a new one; the variants' URIs carry it.
            let id = listener.flatMap { broadcast.heard($0) ? $0 : nil } ?? broadcast.issueListener()
            return Self.playlist(LivePlaylist.master(channel: channel, query: Self.carried(query, listener: id),
                                                     segmentDuration: hub.configuration.segmentDuration))
        case 2 where parts[1] == "aired.json":
            guard let broadcast = hub.broadcast(parts[0]) else { return Self.notFound }
            await broadcast.listen()
            return aired(broadcast, base: base)
        case 2 where parts[1].hasSuffix(".m3u8"):
            guard let kbps = Int(parts[1].dropLast(".m3u8".count)), LiveConfiguration.bitrates.contains(kbps),
                  let broadcast = hub.broadcast(parts[0])
            else { return Self.notFound }
            await broadcast.listen()
            if let listener { broadcast.heard(listener) }
            return media(broadcast, kbps: kbps, query: query)
        case 3 where parts[2].hasSuffix(".ts"):
            guard let kbps = Int(parts[1]), LiveConfiguration.bitrates.contains(kbps),
                  let sequence = Int(parts[2].dropLast(".ts".count)), let broadcast = hub.broadcast(parts[0])
            else { return Self.notFound }
            await broadcast.listen()
            guard let bytes = broadcast.segment(kbps: kbps, sequence: sequence) else { return Self.notFound }
            // A segment never changes once listed.
            return StationReply(status: 200, contentType: "video/mp2t", body: bytes, cacheControl: "max-age=86400")
        default:
            return Self.notFound
        }
    }

    /// `POST /live/<channel>/feedback`: a like (`r`), unlike (`u`) or trash (`b`) teaches
    /// the channel's shared listener; a skip (`s`) or trash of the song on the air is a
    /// vote, and more than half of the current listeners end it at the next segment
    /// boundary. The answer is the tally. A skip or trash of the song that has just left
    /// the air, which listeners at the live edge still hear, is no vote (nothing is left to
    /// end: its end reaches them within seconds): the answer says `ended`. Only a listener
    /// the station knows speaks (``LiveAudience``): a stranger is refused 403
    /// `unknown_listener`, a listener no longer polling votes not (403 `not_listening`), and
    /// one sending too fast (or a stranger's address) is refused 429 `rate_limited`.
    private func feedback(_ broadcast: LiveBroadcast, form: StationRequest, origin: RequestOrigin) async -> StationReply {
        guard let word = form.nonEmptyParameter("type"), let type = ReportType(rawValue: word),
              [.rate, .unrate, .skip, .ban].contains(type)
        else { return Self.refused("invalid_type", status: 400) }
        guard let sid = form.nonEmptyParameter("sid") else { return Self.refused("missing_sid", status: 400) }
        // Feedback must name a song of the library, a skip as much as the rest.
        guard hub.hasSong(sid) else { return Self.refused("invalid_sid", status: 400) }
        let voter: LiveAudience.Voter?
        if let key = await account(form, origin) {
            voter = .account(key)
        } else {
            voter = form.nonEmptyParameter("listener").flatMap { LiveAudience.isID($0.utf8) ? .listener($0) : nil }
        }
        switch broadcast.admit(voter, address: origin.address) {
        case .admitted: break
        case .unknown: return Self.refused("unknown_listener", status: 403)
        case .limited(let wait):
            return JSONResponse.reply(LiveRefusal(err: "rate_limited", retryAfter: (wait + 999) / 1000), status: 429)
        }
        // The vote first: a trash refused as a vote teaches nothing either.
        let vote = type == .skip || type == .ban
        var tally: LiveBroadcast.Tally?
        if vote, let voter {
            switch broadcast.voteToSkip(sid, by: voter) {
            case .counted(let counted): tally = counted
            case .notOnAir: break
            case .notListening: return Self.refused("not_listening", status: 403)
            }
        }
        if type != .skip, !(await hub.teach(type, sid: sid, channel: broadcast.channel)) {
            return Self.refused("invalid_sid", status: 400)
        }
        let onAir = tally != nil || broadcast.songOnAir?.sid == sid
        return JSONResponse.reply(LiveFeedbackAnswer(sid: sid, type: type, onAir: onAir,
                                                     votes: tally?.votes ?? 0, listeners: tally?.listeners ?? 0,
                                                     ending: tally?.ending ?? false,
                                                     ended: vote && !onAir && broadcast.justLeft(sid)))
    }

    /// The master playlist's query for its variants: the request's `begintime` and
    /// `endtime` items as sent, and `listener` with `id` when there is one.
    static func carried(_ query: String?, listener id: String?) -> String? {
        var items = (query ?? "").split(separator: "&").filter { item in
            let name = item.prefix { $0 != "=" }
            return name == "begintime" || name == "endtime"
        }.map(String.init)
        if let id { items.append("listener=\(id)") }
        return items.isEmpty ? nil : items.joined(separator: "&")
    }

    /// A variant's playlist: the live window, or the range the query asks.
    private func media(_ broadcast: LiveBroadcast, kbps: Int, query: String?) -> StationReply {
        // The live window, what every player polls: the same bytes for everyone until the
        // next segment, made once (LiveEdge).
        if query == nil || query?.isEmpty == true {
            return Self.playlist(broadcast.windowPlaylist(kbps: kbps))
        }
        let segments = broadcast.snapshot.segments
        let minimumTarget = broadcast.minimumTarget
        switch Self.range(query, of: segments) {
        case .refused(let reply):
            return reply
        case .window:
            return Self.playlist(broadcast.windowPlaylist(kbps: kbps))
        case .from(let begin):
            let listed = segments.drop { $0.end <= begin }
            return Self.playlist(LivePlaylist.media(listed, kbps: kbps, kind: .liveFrom, minimumTarget: minimumTarget))
        case .between(let begin, let end):
            let listed = segments.drop { $0.end <= begin }.prefix { $0.start < end }
            return Self.playlist(LivePlaylist.media(listed, kbps: kbps, kind: .vod, minimumTarget: minimumTarget))
        }
    }

    /// What a query's `begintime` and `endtime` ask of the segments kept.
    enum Range {
        /// Neither: the live window.
        case window
        /// From `begintime` on, live.
        case from(Int64)
        /// From `begintime` to `endtime`, finished.
        case between(Int64, Int64)
        /// A bad or unavailable range: the answer.
        case refused(StationReply)

        /// The answer when refused.
        var refusal: StationReply? {
            if case .refused(let reply) = self { return reply }
            return nil
        }
    }

    /// Reads `begintime` and `endtime` (ms since the epoch): 400 when they are not whole
    /// numbers or end before they begin, 404 naming what is kept when the range is not.
    static func range(_ query: String?, of segments: [LiveSegment]) -> Range {
        let request = StationRequest(method: "GET", path: "/live", rawQuery: query)
        let beginText = request.parameter("begintime")
        let endText = request.parameter("endtime")
        if beginText == nil, endText == nil { return .window }
        guard let beginText, let begin = Int64(beginText), begin >= 0 else {
            return .refused(error("bad_begintime", status: 400, "begintime must be milliseconds since the epoch", segments))
        }
        var end: Int64?
        if let endText {
            guard let parsed = Int64(endText), parsed > begin else {
                return .refused(error("bad_endtime", status: 400,
                                      "endtime must be milliseconds since the epoch after begintime", segments))
            }
            end = parsed
        }
        guard let first = segments.first?.start, let last = segments.last?.end,
              begin >= first, begin < last, (end ?? last) <= last
        else {
            return .refused(error("out_of_range", status: 404, "the range asked is not kept", segments))
        }
        return end.map { .between(begin, $0) } ?? .from(begin)
    }

    /// `aired.json`: the songs aired, newest first (``LiveProgramme/entries(_:segments:broadcasting:channel:base:)``).
    private func aired(_ broadcast: LiveBroadcast, base: String) -> StationReply {
        let (segments, songs, onAir) = broadcast.snapshot
        return JSONResponse.reply(AiredList(songs: LiveProgramme.entries(songs, segments: segments, broadcasting: onAir,
                                                                         channel: broadcast.channel, base: base)))
    }

    private static let notFound = Self.refused("not_found", status: 404)

    /// A refusal with nothing but its word: `{"r":1,"err":word}`.
    private static func refused(_ word: String, status: Int) -> StationReply {
        JSONResponse.reply(LiveRefusal(err: word), status: status)
    }

    private static func playlist(_ text: String) -> StationReply {
        playlist(Data(text.utf8))
    }

    private static func playlist(_ bytes: Data) -> StationReply {
        StationReply(status: 200, contentType: playlistType, body: bytes, cacheControl: "no-cache")
    }

    private static func error(_ word: String, status: Int, _ message: String, _ segments: [LiveSegment]) -> StationReply {
        let available = segments.first.flatMap { first in
            segments.last.map { LiveRefusal.Range(begintime: first.start, endtime: $0.end) }
        }
        return JSONResponse.reply(LiveRefusal(err: word, message: message, available: available), status: status)
    }
}
