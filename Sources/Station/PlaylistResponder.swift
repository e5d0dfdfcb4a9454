import RadioAPI

/// The logic of `GET /j/app/radio/people` (douban-protocol.md §2, §3.1, §7, §9), apart
/// from HTTP: a request's parameters in, an answer out, with the listener's feedback
/// recorded on the way.
///
/// - `type` must be one of `n e p s b r u`; all but `n` must name a song (`sid`).
/// - `e`, `r` and `u` are acknowledged with `{"r":0}` (`r`/`u` after recording the heart).
/// - `n`, `p`, `s` and `b` answer a list (`b` after recording the trash), which never holds
///   a song the listener trashed and avoids the current song and those in `h` while the
///   channel has enough others.
/// - Requests without credentials are the shared anonymous listener; their lists carry
///   `"logout":1` (CATX), and the red-heart channel answers them with the anonymous
///   warning and no songs (fixture F5b).
struct PlaylistResponder: Sendable {
    /// What the endpoint answers.
    enum Answer: Sendable, Equatable {
        /// A song list (or the anonymous red-heart answer).
        case playlist(Playlist)
        /// `{"r":0}`: the report was taken.
        case acknowledged
        /// `{"r":1,"err":word}`.
        case refused(String)
    }

    /// How many songs a list holds when the channel has that many.
    static let listSize = 5

    let library: Library
    let memory: ListenerMemory
    let picker: SongPicker

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - request: the request, for its query parameters.
    ///   - mediaBase: the server root song URLs start with, e.g. `http://127.0.0.1:7650`.
    func answer(_ request: StationRequest, mediaBase: String) -> Answer {
        guard let typeWord = request.parameter("type"), !typeWord.isEmpty else { return .refused("missing_type") }
        guard let type = ReportType(rawValue: typeWord) else { return .refused("invalid_type") }
        let sid = request.parameter("sid") ?? ""
        if type.needsSongID, sid.isEmpty { return .refused("missing_sid") }
        let channel = nonEmpty(request.parameter("channel")) ?? Channel.personalID
        guard channel == Channel.redHeartID || library.catalog.songIDs(inChannel: channel) != nil else {
            return .refused("invalid_channel")
        }
        // Feedback must name a song of this library, or it would be remembered for nothing.
        let isFeedback = type == .ban || type == .rate || type == .unrate
        if isFeedback, library.track(sid: sid) == nil { return .refused("invalid_sid") }

        // Accounts come later: any user_id with a token is taken at its word.
        let hasCredentials = nonEmpty(request.parameter("user_id")) != nil && nonEmpty(request.parameter("token")) != nil
        let listener = hasCredentials ? request.parameter("user_id")! : ListenerMemory.anonymous

        switch type {
        case .ban: memory.trash(sid, for: listener)
        case .rate: memory.like(sid, for: listener)
        case .unrate: memory.unlike(sid, for: listener)
        case .new, .end, .playing, .skip: break
        }
        guard type.expectsList else { return .acknowledged }

        if channel == Channel.redHeartID, !hasCredentials {
            return .playlist(Playlist(songs: [], versionMax: nil, warning: "user_is_ananymous", showQuickStart: 1))
        }
        let feedback = memory.feedback(for: listener)
        let members = channel == Channel.redHeartID ? feedback.liked : library.catalog.songIDs(inChannel: channel) ?? []
        let candidates = members.filter { !feedback.trashed.contains($0) }
        var recent = ReportHistory.parse(request.parameter("h") ?? "").map(\.sid)
        if !sid.isEmpty { recent.append(sid) }
        let chosen = picker.pick(from: candidates, avoiding: recent, count: Self.listSize)
        let songs = chosen.compactMap { library.track(sid: $0) }.map {
            $0.song(mediaBase: mediaBase, liked: feedback.likes($0.sid))
        }
        return .playlist(Playlist(songs: songs, versionMax: 100, loggedOut: !hasCredentials))
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
