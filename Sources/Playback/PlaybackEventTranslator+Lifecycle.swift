import Backoff
import CMpv

/// An entry's life: START_FILE, PLAYBACK_RESTART, property changes, log lines, END_FILE.
extension PlaybackEventTranslator {
    /// START_FILE: `entry` becomes current. Entries dropped before it are now provably dead
    /// (reported stopped); a recovery's reload carries the item's known duration over.
    mutating func startFile(_ entry: Int64, at now: ContinuousClock.Instant) {
        guard !silenced.contains(entry) else { return }
        // Whatever the controller dropped before this entry was created is dead by now; an
        // entry mpv began anyway (the drop raced its start) ends with its own END_FILE.
        finishDoomed { $0 <= entry }
        doomed.removeAll { $0.entry == entry }
        unstarted.remove(entry)
        if queued?.entry == entry { queued = nil }
        var next = Current(entry: entry, item: item(ofEntry: entry))
        if let incident = recovery, incident.reloadEntry == entry {
            next.reportedDuration = incident.duration
            next.duration = incident.duration
        }
        current = next
        seekPending = false
    }

    /// PLAYBACK_RESTART: the first one after FILE_LOADED is the item's `started` (or a
    /// recovery's `recovered`), with tags seen before it right after; later ones end a seek,
    /// so the next position is reported without waiting for the throttle.
    mutating func playbackRestart(at now: ContinuousClock.Instant) {
        guard var playing = current else { return }
        playing.lastProgressTime = nil  // report where a seek landed without waiting for the throttle
        defer { current = playing }
        guard playing.loaded, !playing.started else { return }
        playing.started = true
        let id = PlaybackItemID(rawValue: playing.item)
        if var incident = recovery, incident.reloadEntry == playing.entry {
            incident.playing = true
            recovery = incident
            send(.recovered(id, position: playing.lastPosition ?? incident.position))
        } else {
            playing.reportedDuration = playing.duration
            send(.started(id, duration: playing.duration))
        }
        if let tags = playing.pendingMetadata, tags != playing.metadata {
            playing.metadata = tags
            send(.metadata(id, tags))
        }
        playing.pendingMetadata = nil
    }

    /// Handles END_FILE, deferring those whose meaning may depend on log lines still in
    /// mpv's buffer (see `pendingEnd`).
    mutating func endFile(_ end: MPVEndFile, decided: Bool = false, at now: ContinuousClock.Instant) {
        if silenced.remove(end.entry) != nil {
            unstarted.remove(end.entry)
            if current?.entry == end.entry { current = nil }
            actions.append(.removeEntry(end.entry))
            return
        }
        if !decided, end.reason == .eof || end.reason == .error {
            pendingEnd = end
            return
        }
        if let url = urlToProbe(for: end) {
            pendingEnd = end
            probing = true
            actions.append(.probe(entry: end.entry, url: url))
            return
        }
        unstarted.remove(end.entry)
        doomed.removeAll { $0.entry == end.entry }
        let id = item(ofEntry: end.entry)
        aliases[end.entry] = nil
        let ended = current?.entry == end.entry ? current : nil
        if ended != nil { current = nil }
        actions.append(.removeEntry(end.entry))
        let isReload = recovery?.reloadEntry == end.entry
        switch end.reason {
        case .stop, .quit:
            if isReload || recovery?.stalledEntry == end.entry { recovery = nil; timers.removeAll() }
            finish(id, .stopped)
        case .redirect where end.insertedCount > 0:
            // A playlist file (e.g. .m3u) was replaced by its entries; its first entry plays
            // on behalf of this load. Later entries keep their own ids, which no caller knows.
            aliases[end.insertedEntry] = id
        case .redirect: finish(id, .error(mpvErrorText(MPV_ERROR_NOTHING_TO_PLAY.rawValue)))  // an empty playlist
        case .eof:
            let broken = ended.map(isBroken) ?? false
            // A reload that plays and then ends counts as a real end unless the log shows
            // trouble (the log may be missing, see MediaURLProbe): a duration estimate that
            // was too long must not loop until the player gives up.
            if isReload, !(recovery?.playing ?? false) || (broken && ended?.troubled == true) {
                attemptFailed(httpStatus: ended?.status, position: ended?.lastPosition, at: now)
            } else if let ended, ended.started, broken, recovery == nil {
                beginRecovery(from: ended, stalled: false, at: now)
            } else {
                if isReload { recovery = nil }
                finish(id, .eof)
            }
        case .error:
            // A probe's answer wins over the log: the log may be another instance's (MediaURLProbe).
            // Only an error status is a refusal: a probe answered 200 or 206 says the URL
            // works now (a reload that failed while the connection was down), so the log decides.
            let logged = ended?.status ?? urls[id].flatMap { failedOpens.removeValue(forKey: $0) }
            let probed = probedStatus.removeValue(forKey: end.entry)
            let status = probed.flatMap { $0 >= 400 ? $0 : nil } ?? logged
            if end.error == MPV_ERROR_AO_INIT_FAILED.rawValue {
                if isReload { recovery = nil; timers.removeAll() }
                finish(id, .audioOutputFailed)
            } else if isReload {
                attemptFailed(httpStatus: status, position: ended?.lastPosition, at: now)
            } else if let ended, ended.started, ended.troubled || isBroken(ended), status.map { StatusVerdict(status: $0).mayPassLater } ?? true,
                      policy.maxAttempts > 0, recovery == nil {
                beginRecovery(from: ended, stalled: false, at: now)
            } else if let status {
                finish(id, .mediaUnavailable(status: status))
            } else {
                finish(id, .error(mpvErrorText(end.error)))
            }
        case .unknown(let raw): finish(id, .error("unknown end-file reason \(raw)"))
        }
    }

    /// Decides the deferred END_FILE once mpv's queue is drained.
    mutating func resolvePendingEnd(at now: ContinuousClock.Instant) {
        guard let end = pendingEnd else { return }
        pendingEnd = nil
        endFile(end, decided: true, at: now)
    }

    /// Sends `finished` and forgets the item's URL and gain.
    mutating func finish(_ item: Int64, _ reason: FinishReason) {
        urls[item] = nil
        gains[item] = nil
        send(.finished(PlaybackItemID(rawValue: item), reason))
    }

    /// An `eof` that is really a break: a network stream that ended short of its known
    /// duration (one without a duration, a live stream, never ends on purpose). mpv reports
    /// a stream whose connection died and could not be reopened as END_FILE `eof`, not as an
    /// error (seen with 0.35.1: "Stream ends prematurely at 98304, should be 321036", ffmpeg's
    /// reconnect refused, then END_FILE reason 0 at 5.95 s of a 20 s file). Local files
    /// are never broken. With an untimed output (`untimedOutput`) only logged trouble is.
    func isBroken(_ entry: Current) -> Bool {
        guard policy.maxAttempts > 0, let url = urls[entry.item], MediaURLProbing.canProbe(url) else { return false }
        if untimedOutput { return entry.troubled }
        guard let duration = entry.duration else { return true }
        return (entry.lastPosition ?? 0) < duration - policy.endTolerance
    }

    /// The URL to ask the server about before deciding `end`: mpv could not open it ("loading
    /// failed") and it has not been asked yet. Asked even when the log carried a status: in
    /// a process with several mpv instances the line may have been another instance's.
    private func urlToProbe(for end: MPVEndFile) -> String? {
        guard probesStatus, end.reason == .error, end.error == MPV_ERROR_LOADING_FAILED.rawValue,
              probedStatus[end.entry] == nil else { return nil }
        let id = item(ofEntry: end.entry)
        guard let url = urls[id], MediaURLProbing.canProbe(url) else { return nil }
        return url
    }

    /// An observed property changed: position, duration, pause, volume, mute, cache stall,
    /// tags. Each is reported only when it differs from what was last sent.
    mutating func propertyChanged(_ property: MPVProperty, _ value: MPVNode, at now: ContinuousClock.Instant) {
        switch (property, value) {
        case (.timePosition, .double(let position)): positionChanged(position, at: now)
        case (.duration, _):
            guard var playing = current else { return }
            playing.duration = value.doubleValue
            if playing.started, let duration = playing.duration, duration != playing.reportedDuration {
                playing.reportedDuration = duration
                send(.duration(PlaybackItemID(rawValue: playing.item), duration))
            }
            current = playing
        case (.pause, .flag(let flag)) where flag != paused:
            paused = flag
            send(flag ? .paused : .resumed)
        case (.mute, .flag(let flag)) where flag != muted:
            muted = flag
            send(.muted(flag))
        case (.volume, .double(let level)) where Int(level.rounded()) != volume:
            volume = Int(level.rounded())
            send(.volume(volume))
        case (.pausedForCache, .flag(let stalled)): bufferingChanged(stalled, at: now)
        case (.metadata, .map(let map)):
            guard var playing = current else { return }
            let tags = StreamMetadata(tags: map.compactMapValues { if case .string(let text) = $0 { text } else { nil } })
            if !playing.started {
                playing.pendingMetadata = tags
            } else if tags != playing.metadata {
                playing.metadata = tags
                send(.metadata(PlaybackItemID(rawValue: playing.item), tags))
            }
            current = playing
        default:
            break  // unavailable values, and values equal to the last ones
        }
    }

    private mutating func positionChanged(_ position: Double, at now: ContinuousClock.Instant) {
        guard var playing = current else { return }
        defer { current = playing }
        playing.lastPosition = position
        if let incident = recovery, incident.playing, incident.reloadEntry == playing.entry,
           position >= incident.position + RecoveryIncident.settledAfter {
            recovery = nil  // the reload plays on: the incident is over
        }
        guard playing.started, !seekPending, position != playing.lastProgress else { return }
        if let last = playing.lastProgressTime, now - last < Self.progressInterval { return }
        playing.lastProgress = position
        playing.lastProgressTime = now
        send(.progress(PlaybackItemID(rawValue: playing.item), position: position))
    }

    private mutating func bufferingChanged(_ stalled: Bool, at now: ContinuousClock.Instant) {
        guard var playing = current, playing.started, stalled != playing.buffering else { return }
        playing.buffering = stalled
        current = playing
        send(.buffering(PlaybackItemID(rawValue: playing.item), stalled))
        timers.removeAll { $0.kind == .stallCheck(entry: playing.entry) }
        if stalled, policy.maxAttempts > 0 {
            timers.append(TranslatorTimer(deadline: now + .seconds(policy.stallTimeout),
                                          kind: .stallCheck(entry: playing.entry)))
        }
    }

    /// Collects what mpv's log lines say about the current entry.
    mutating func noteLog(_ message: MPVLogMessage) {
        switch StreamLogClassifier.classify(message) {
        case .httpStatus(let status)?:
            lastLoggedStatus = status
            current?.tentativeStatus = status
            current?.tentativeTrouble = true
        case .transportTrouble?:
            current?.tentativeTrouble = true
        case .failedToOpen(let url)?:
            if var playing = current, urls[playing.item] == url {
                playing.transportTrouble = playing.troubled
                playing.httpStatus = playing.status
                playing.tentativeTrouble = false
                playing.tentativeStatus = nil
                current = playing
            } else {
                // The lines since the last such line were about another URL: a prefetched
                // next item that mpv opened while this entry played.
                current?.tentativeTrouble = false
                current?.tentativeStatus = nil
                if let status = lastLoggedStatus {
                    if failedOpens.count > 32 { failedOpens.removeAll() }
                    failedOpens[url] = status
                }
            }
            lastLoggedStatus = nil
        case .videoOutputFailed(let text)?:
            send(.videoOutputFailed(text))
        case .audioOutputFailed?, nil:
            break  // an audio output failure ends the file with MPV_ERROR_AO_INIT_FAILED
        }
    }
}
