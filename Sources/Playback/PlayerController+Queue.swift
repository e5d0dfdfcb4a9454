/// The queued next item: gapless, prefetched hand-over, and instant skips.
extension PlayerController {
    /// Queues `url` to play right after the current item, replacing an earlier queued item
    /// that has not started (it gets `finished(_, .stopped)`). mpv opens it while the
    /// current item plays (`prefetch-playlist`) and hands over without a gap when the current
    /// one ends (`gapless-audio`): its `started` follows the current item's `finished(.eof)`.
    /// If nothing is playing, it starts at once.
    ///
    /// While a recovery waits to reload the current item, the queued item waits behind it.
    /// - Returns: the queued item's id; its `started`/`finished` carry it.
    /// - Throws: `.commandFailed` if mpv refuses the command.
    @discardableResult
    public func queueNext(_ url: String) throws(PlaybackError) -> PlaybackItemID {
        try loop.withTranslator { translator, _ throws(PlaybackError) in
            if let queued = translator.queued {
                if let entry = queued.entry {
                    let entries = handle.playlistEntries()
                    if let index = entries.firstIndex(where: { $0.id == entry }), !entries[index].isCurrent {
                        try handle.command(.playlistRemove, [String(index)])
                        translator.noteDequeued()
                    } else {
                        // mpv has already begun it (or played it): it is no longer "next".
                        translator.noteQueuedBecameCurrent()
                    }
                } else {
                    translator.noteDequeued()
                }
            }
            let flags = translator.holdsQueue ? MPVArgument.append : MPVArgument.appendPlay
            let entry = try handle.loadFile(url, flags: flags)
            translator.noteQueued(entry, url: url)
            return PlaybackItemID(rawValue: entry)
        }
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
                let entry = try handle.loadFile(target.url, flags: MPVArgument.replace)
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
