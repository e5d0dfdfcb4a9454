/// Playlist commands built on `MPVHandle`'s primitives, shared by the controller (for the
/// caller's commands) and the event loop (for recoveries).
extension MPVHandle {
    /// One entry of mpv's `playlist` property.
    struct PlaylistEntry: Sendable, Equatable {
        /// mpv's `playlist_entry_id`.
        var id: Int64
        /// The entry mpv is on (playing or loading).
        var isCurrent: Bool
    }

    /// `loadfile url <flags> [start=<seconds>]` with named arguments.
    /// - Returns: the new entry's id. loadfile has replied `{"playlist_entry_id": N}` since
    ///   mpv 0.33 (checked on 0.35.1, for `replace`, `append` and `append-play`).
    /// - Throws: `.commandFailed` if mpv refuses the command or the reply lacks the id.
    func loadFile(_ url: String, flags: String, startAt: Double = 0) throws(PlaybackError) -> Int64 {
        var arguments = [(MPVArgument.url, url), (MPVArgument.flags, flags)]
        if startAt > 0 {
            arguments.append((MPVArgument.options, "\(MPVArgument.start)=\(MPVArgument.number(startAt))"))
        }
        let reply = try command(.loadFile, named: arguments)
        guard case .int64(let entry)? = reply[MPVArgument.playlistEntryID] else {
            throw .commandFailed(name: MPVCommand.loadFile.rawValue, message: "reply has no playlist_entry_id")
        }
        return entry
    }

    /// The playlist as mpv holds it now (empty when unavailable).
    func playlistEntries() -> [PlaylistEntry] {
        guard case .array(let items)? = node(.playlist) else { return [] }
        return items.compactMap { item in
            guard case .int64(let id)? = item["id"] else { return nil }
            let current = if case .flag(true)? = item["current"] { true } else { false }
            return PlaylistEntry(id: id, isCurrent: current)
        }
    }

    /// Removes the entry `id` unless it is gone already or is the current one (removing the
    /// current entry would stop playback).
    func removeEntry(_ id: Int64) {
        let entries = playlistEntries()
        guard let index = entries.firstIndex(where: { $0.id == id }), !entries[index].isCurrent else { return }
        try? command(.playlistRemove, [String(index)])
    }
}
