/// The queued next item: gapless, prefetched hand-over, and instant skips.
extension PlayerController {
    /// Queues `url` to play right after the current item, replacing an earlier queued item
    /// that has not started (it gets `finished(_, .stopped)`). mpv opens it while the
    /// current item plays (`prefetch-playlist`) and hands over without a gap when the current
    /// one ends (`gapless-audio`): its `started` follows the current item's `finished(.eof)`.
    /// If nothing is playing, it starts at once.
    ///
    /// `startAt` (seconds) lets a long item the caller remembers resume where it was left when
    /// it comes up, as `load(_:startAt:)` does. While a recovery waits to reload the current
    /// item, the queued item waits behind it. `gain` is the item's own, as for `load`.
    /// - Returns: the queued item's id; its `started`/`finished` carry it.
    /// - Throws: `.commandFailed` if mpv refuses the command.
    @discardableResult
    public func queueNext(_ url: String, startAt: Double = 0, gain: Double? = nil) throws(PlaybackError) -> PlaybackItemID {
        try loop.withTranslator { translator, _ throws(PlaybackError) in
            if translator.queued != nil, try dequeue(&translator) != .removed {
                // mpv has already begun it (or played it): it is no longer "next".
                translator.noteQueuedBecameCurrent()
            }
            let flags = translator.holdsQueue ? MPVArgument.append : MPVArgument.appendPlay
            let entry = try handle.loadFile(url, flags: flags, startAt: startAt, gain: gain)
            translator.noteQueued(entry, url: url, startAt: startAt, gain: gain)
            return PlaybackItemID(rawValue: entry)
        }
    }

    /// Takes the queued item back so it never plays: the caller's idea of what comes next
    /// changed (a fresh list, another channel) and nothing new is queued in its place. The
    /// item finishes as stopped. Should mpv have begun it already (the current item ended at
    /// that very moment), playback stops, since the item that would play is the unwanted
    /// one. Does nothing when nothing is queued.
    /// - Throws: `.commandFailed` if mpv refuses the command.
    public func clearQueued() throws(PlaybackError) {
        try loop.withTranslator { translator, _ throws(PlaybackError) in
            guard translator.queued != nil else { return }
            switch try dequeue(&translator) {
            case .removed: return
            case .gone:
                translator.noteQueuedBecameCurrent()
                return
            case .current: break
            }
            try handle.command(.stop)
            if let marker = translator.noteStop() {
                try? handle.commandAsync(.ignore, replyID: UInt64(marker))
            }
        }
    }

    /// What `dequeue` found: the entry was removed, or mpv is on it now, or it is no longer
    /// in mpv's playlist (mpv began and ended it).
    private enum Dequeued { case removed, current, gone }

    /// Removes the queued item's entry from mpv's playlist (or drops the one a recovery
    /// holds outside it) and reports it stopped, unless mpv has already moved on to it.
    private func dequeue(_ translator: inout PlaybackEventTranslator) throws(PlaybackError) -> Dequeued {
        guard let entry = translator.queued?.entry else {
            translator.noteDequeued()
            return .removed
        }
        let entries = handle.playlistEntries()
        guard let index = entries.firstIndex(where: { $0.id == entry }) else { return .gone }
        if entries[index].isCurrent { return .current }
        try handle.command(.playlistRemove, [String(index)])
        translator.noteDequeued()
        return .removed
    }

    /// Skips to the queued item now (`playlist-next`): the current item gets
    /// `finished(_, .stopped)` and the queued one starts from mpv's prefetched data, without
    /// waiting for the network (see the benchmark for the hand-over time).
    /// - Returns: the id of the item now playing (the one `queueNext` returned).
    /// - Throws: `.nothingQueued` when no item is queued.
    @discardableResult
    public func advance() throws(PlaybackError) -> PlaybackItemID {
        try loop.withTranslator { translator, _ throws(PlaybackError) in
            if let target = translator.queuedDuringRecovery {
                let entry = try handle.loadFile(target.url, flags: MPVArgument.replace, startAt: translator.queuedStart,
                                                gain: target.gain)
                translator.noteAdvancedByReplace(entry)
                return PlaybackItemID(rawValue: target.item)
            }
            let entries = handle.playlistEntries()
            guard let current = entries.firstIndex(where: \.isCurrent), current + 1 < entries.count else {
                throw .nothingQueued
            }
            let next = entries[current + 1].id
            do throws(PlaybackError) {
                try handle.command(.playlistNext)
            } catch {
                // mpv may have moved on to it by itself between the read and the command.
                guard handle.playlistEntries().first(where: \.isCurrent)?.id == next else { throw error }
            }
            translator.noteAdvanced()
            return PlaybackItemID(rawValue: translator.item(ofEntry: next))
        }
    }
}
