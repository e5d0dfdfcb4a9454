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

    /// `loadfile url <flags> [<options>]` with named arguments; the options are
    /// `fileOptions(startAt:gain:)`.
    /// - Returns: the new entry's id. loadfile has replied `{"playlist_entry_id": N}` since
    ///   mpv 0.33 (checked on 0.35.1, for `replace`, `append` and `append-play`).
    /// - Throws: `.commandFailed` if mpv refuses the command or the reply lacks the id.
    func loadFile(_ url: String, flags: String, startAt: Double = 0, gain: Double? = nil) throws(PlaybackError) -> Int64 {
        var arguments = [(MPVArgument.url, url), (MPVArgument.flags, flags)]
        if let options = Self.fileOptions(startAt: startAt, gain: gain) {
            arguments.append((MPVArgument.options, options))
        }
        let reply = try command(.loadFile, named: arguments)
        guard case .int64(let entry)? = reply[MPVArgument.playlistEntryID] else {
            throw .commandFailed(name: MPVCommand.loadFile.rawValue, message: "reply has no playlist_entry_id")
        }
        return entry
    }

    /// loadfile's per-file options (`key=value,...`; nil when there are none): `start=<seconds>`
    /// past the beginning, and for a gain of at least a tenth of a dB
    /// `af=lavfi=[volume=<gain>dB]`.
    ///
    /// The gain is a filter of the file's own chain, not mpv's `replaygain-fallback`: mpv
    /// builds a new filter chain for each file, so the gain begins and ends with the file's
    /// own samples, also at a gapless hand-over, while `replaygain-fallback` is a gain of the
    /// audio output that changes when the next file's chain attaches, with the previous
    /// file's last samples possibly still in the output's buffer. The volume keys (mpv's
    /// `volume`, at the output) apply on top, and seeking or pausing keeps the chain.
    /// Brackets quote the filter's own `=`; the value has no comma, which would end the option.
    static func fileOptions(startAt: Double, gain: Double?) -> String? {
        var options: [String] = []
        if startAt > 0 { options.append("\(MPVArgument.start)=\(MPVArgument.number(startAt))") }
        if let tenths = gain.flatMap(tenths), tenths != 0 {
            options.append("\(MPVArgument.audioFilters)=lavfi=[volume=\(MPVArgument.number(Double(tenths) / 10))dB]")
        }
        return options.isEmpty ? nil : options.joined(separator: ",")
    }

    /// A gain in whole tenths of a dB, nil when it is not a number a listener could want
    /// (not finite, or beyond ±60 dB, past which it is no level but a mistake).
    private static func tenths(_ gain: Double) -> Int? {
        guard gain.isFinite, abs(gain) <= 60 else { return nil }
        return Int((gain * 10).rounded())
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
