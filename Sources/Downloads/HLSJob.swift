import Foundation
import HLSPlaylist
import Store

/// One transfer of an HLS task, from its playlist to its finished file (see ``HLSFetcher``):
/// the playlist read (or re-read on a resume), the partial file cut back to what the
/// progress row confirms, the segments appended in order, a live playlist reloaded.
struct HLSJob {
    /// The fetcher whose settings, client and store the job uses.
    let fetcher: HLSFetcher
    /// The task.
    let record: DownloadRecord
    /// The plan its caller made before the task was added, followed instead of reading the
    /// playlist again when no progress row names the media playlist.
    let plan: HLSPlan?
    /// Its partial file, open for writing and locked.
    let descriptor: Int32
    /// Told the bytes in the partial file and the estimated total after each append.
    let progress: @Sendable (Int64, Int64?) -> Void

    /// How appending a run of segments ended.
    private enum Step {
        /// Every segment is in.
        case done
        /// The user asked a live recording to finish.
        case finishing
        /// The transfer was cancelled (pause, cancel, shutdown).
        case stopped
        /// A segment, its key or the file failed.
        case failed(DownloadError)
    }

    private var id: Int64 { record.id ?? 0 }
    private var files: DownloadFiles { DownloadFiles(record.path) }

    /// A job for `record` (following `plan`, when given), writing to `descriptor`.
    init(fetcher: HLSFetcher, record: DownloadRecord, plan: HLSPlan?, descriptor: Int32,
         progress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.fetcher = fetcher
        self.record = record
        self.plan = plan
        self.descriptor = descriptor
        self.progress = progress
    }

    /// Runs the transfer to its outcome: completed (the file in place), failed (with what
    /// is appended kept for the next attempt), or stopped (cancelled).
    mutating func run() async -> TransferOutcome {
        var saved: HLSProgress?
        do throws(StoreError) { saved = try fetcher.store.hlsProgress(downloadID: id) } catch { return .failed(.storage(error), bytes: 0) }
        // A file shorter than the row says (deleted, or cut by a crash of the machine), or a
        // row no append could have written: nothing of it can be trusted, so the download
        // starts again.
        if let row = saved, Disk.size(of: descriptor) < row.bytes
            || !HLSJobArithmetic.isPlausible(segmentsDone: row.segmentsDone, bytes: row.bytes,
                                            recordedSeconds: row.recordedSeconds, periodStarts: row.periodStarts)
        {
            saved = nil
        }
        let planner = HLSPlanner(http: fetcher.http)
        var media: MediaPlaylist, mediaURL: URL
        do throws(DownloadError) {
            if let saved, let url = URL(string: saved.playlistURL) {
                (media, mediaURL) = try await planner.media(url)
            } else if let plan {
                (media, mediaURL) = (plan.media, plan.mediaURL)
            } else {
                guard let url = URL(string: record.url) else { throw .invalidURL(record.url) }
                // The row keeps the quality as its name (``VariantQuality/name``).
                let quality = record.quality.flatMap(VariantQuality.init) ?? fetcher.defaultQuality
                let plan = try await planner.plan(url, quality: quality, audioLanguage: record.audioLanguage)
                (media, mediaURL) = (plan.media, plan.mediaURL)
            }
            do { try media.checkDecryptable() } catch { throw HLSPlanner.failure(error) }
        } catch {
            if Task.isCancelled { return .stopped }
            return .failed(error, bytes: saved?.bytes ?? 0)
        }
        if media.segments.isEmpty, !media.isLive {
            return .failed(.playlist(url: mediaURL.absoluteString, reason: .emptyPlaylist), bytes: 0)
        }
        // Only a live playlist's download is a recording that Ctrl-C finishes.
        if media.isLive { fetcher.noteRecording(id) }
        var row = saved ?? HLSProgress(downloadID: id, playlistURL: mediaURL.absoluteString,
                                       nextSequence: media.segments.first?.sequence ?? media.mediaSequence,
                                       segmentsDone: 0, bytes: 0, recordedSeconds: 0)
        // Bytes past the row's (an append that a kill -9 interrupted before the row said
        // so) are cut: that segment is appended again.
        _ = ftruncate(descriptor, off_t(row.bytes))
        _ = lseek(descriptor, off_t(row.bytes), SEEK_SET)
        if saved == nil {
            do throws(StoreError) { try fetcher.store.saveHLSProgress(row) } catch { return .failed(.storage(error), bytes: 0) }
        }
        let writer = SegmentWriter(descriptor: descriptor, path: files.part, http: fetcher.http,
                                   lastMap: media.segments.last { $0.sequence < row.nextSequence }?.map)
        progress(row.bytes, estimate(row, media))
        var playlist = media
        var unchangedReloads = 0
        // The segment whose refusal made the playlist be fetched again (once per segment).
        var refreshedAt: Int?
        while true {
            if playlist.isLive, row.segmentsDone > 0, let first = playlist.segments.first, first.sequence > row.nextSequence {
                let missed = HLSJobArithmetic.missed(first: first.sequence, next: row.nextSequence)
                return await finish(row, or: .liveWindowPassed(missed: missed))
            }
            let pending = HLSJobArithmetic.pending(playlist, from: row.nextSequence, recorded: row.recordedSeconds,
                                                   limit: record.recordSeconds)
            switch await append(pending, writer: writer, row: &row, media: playlist) {
            case .failed(.segment(let sequence, .httpStatus(let status))) where [401, 403, 410].contains(status)
                && refreshedAt != sequence:
                // A signed segment URI that expired: the playlist, fetched again, signs it
                // anew, and the segment is found again by its sequence number.
                refreshedAt = sequence
                fetcher.log("download \(id): segment \(sequence) answered HTTP \(status); fetching the playlist again")
                do throws(DownloadError) {
                    (playlist, _) = try await planner.media(mediaURL)
                } catch {
                    if Task.isCancelled { return .stopped }
                    return .failed(error, bytes: row.bytes)
                }
                continue
            case .failed(let error): return .failed(error, bytes: row.bytes)
            case .stopped: return .stopped
            case .finishing: return await finish(row, or: nil)
            case .done: break
            }
            if !playlist.isLive { return await finish(row, or: nil) }
            if let limit = record.recordSeconds, row.recordedSeconds >= limit { return await finish(row, or: nil) }
            switch await sleep(HLSJobArithmetic.reloadWait(playlist, unchangedReloads: unchangedReloads)) {
            case .finishing: return await finish(row, or: nil)
            case .stopped: return .stopped
            default: break
            }
            do throws(DownloadError) {
                let (reloaded, _) = try await planner.media(mediaURL)
                let before = playlist.segments.last?.sequence
                playlist = reloaded
                unchangedReloads = playlist.segments.last?.sequence == before ? unchangedReloads + 1 : 0
            } catch {
                if Task.isCancelled { return .stopped }
                return .failed(error, bytes: row.bytes)
            }
        }
    }

    /// Fetches `pending` segments `segmentConcurrency` at a time and appends them in order.
    private func append(_ pending: [Segment], writer: SegmentWriter, row: inout HLSProgress,
                        media: MediaPlaylist) async -> Step {
        var inflight: [Int: Task<Result<Int64, DownloadError>, Never>] = [:]
        let files = self.files, pieces = fetcher.segments
        for (index, segment) in pending.enumerated() {
            for ahead in index..<min(pending.count, index + fetcher.segmentConcurrency) where inflight[ahead] == nil {
                let next = pending[ahead]
                let piece = SegmentFetcher.Piece(uri: next.uri, byteRange: next.byteRange,
                                                 path: files.piece(sequence: next.sequence))
                inflight[ahead] = Task { await pieces.fetch(piece) }
            }
            let task = inflight.removeValue(forKey: index)!
            let result: Result<Int64, DownloadError>
            switch await awaitSegment(task, live: media.isLive) {
            case .fetched(let fetched): result = fetched
            case .finishing:
                // A segment still on its way (a server gone silent) does not hold up the
                // finish: what is appended is the recording.
                await drain(inflight.merging([index: task]) { kept, _ in kept })
                return .finishing
            }
            if Task.isCancelled {
                await drain(inflight)
                return .stopped
            }
            if case .failure(let error) = result {
                await drain(inflight)
                return .failed(.segment(sequence: segment.sequence, reason: error))
            }
            let piecePath = files.piece(sequence: segment.sequence)
            var mapFile: String?
            if let map = segment.map, map != writer.lastMap {
                let file = files.map
                unlink(file)
                if case .failure(let error) = await pieces.fetch(.init(uri: map.uri, byteRange: map.byteRange, path: file)) {
                    await drain(inflight)
                    return .failed(.segment(sequence: segment.sequence, reason: error))
                }
                mapFile = file
            }
            // A segment after a discontinuity starts a period (its init segment, when
            // written, is part of it); the first segment appended starts the first.
            let periodStart = segment.discontinuity && row.segmentsDone > 0 ? row.bytes : nil
            let written: Int64
            do {
                written = try await writer.append(segment, file: piecePath, mapFile: mapFile)
            } catch {
                await drain(inflight)
                // What was appended of it is cut at the next attempt; a piece that does not
                // decrypt or is not media is fetched again then.
                if case .decryptionFailed = error { unlink(piecePath) }
                if case .corruptSegment = error { unlink(piecePath) }
                return .failed(error)
            }
            if let mapFile { unlink(mapFile) }
            row.nextSequence = segment.sequence + 1
            row.segmentsDone += 1
            row.bytes += written
            row.recordedSeconds += segment.duration
            if let periodStart { row.periodStarts.append(periodStart) }
            row.updatedAt = Date()
            do throws(StoreError) { try fetcher.store.saveHLSProgress(row) } catch {
                await drain(inflight)
                return .failed(.storage(error))
            }
            unlink(piecePath)
            progress(row.bytes, estimate(row, media))
            if media.isLive, fetcher.isFinishing(id) {
                await drain(inflight)
                return .finishing
            }
        }
        return .done
    }

    /// What became of a segment's fetch as the job waited for it.
    private enum Awaited: Sendable {
        /// The fetch ended, well or not.
        case fetched(Result<Int64, DownloadError>)
        /// The user asked the live recording to finish first.
        case finishing
    }

    /// Waits for a segment's fetch; for a live recording, also for the user's asking it to
    /// finish (looked at every 100 ms), whichever comes first, so one Ctrl-C finishes a
    /// recording at once even while a segment hangs.
    private func awaitSegment(_ task: Task<Result<Int64, DownloadError>, Never>, live: Bool) async -> Awaited {
        guard live else {
            return .fetched(await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() })
        }
        let fetcher = self.fetcher, id = self.id
        return await withTaskGroup(of: Awaited?.self) { group in
            group.addTask {
                .fetched(await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() })
            }
            group.addTask {
                while !fetcher.isFinishing(id) {
                    do { try await Task.sleep(for: .milliseconds(100)) } catch { return nil }
                }
                return .finishing
            }
            // The watcher answers nil only once cancelled; the fetch always answers.
            while let next = await group.next() {
                guard let next else { continue }
                group.cancelAll()
                return next
            }
            return .fetched(await task.value)
        }
    }

    /// Stops the fetches still on their way and waits for them to let go of their files.
    private func drain(_ inflight: [Int: Task<Result<Int64, DownloadError>, Never>]) async {
        for task in inflight.values { task.cancel() }
        for task in inflight.values { _ = await task.value }
    }

    /// Waits between reloads of a live playlist, looking every 100 ms whether the user
    /// asked the recording to finish or the transfer was cancelled.
    private func sleep(_ wait: Duration) async -> Step {
        let until = ContinuousClock.now + wait
        while ContinuousClock.now < until {
            if fetcher.isFinishing(id) { return .finishing }
            do { try await Task.sleep(for: .milliseconds(100)) } catch { return .stopped }
        }
        return .done
    }

    /// Renames the partial file into place (a recording that stopped at a gap keeps what
    /// it has and says why in the log; with nothing recorded it fails with `reason`); a
    /// file of several periods is first made one stream by the fetcher's repair, whose
    /// output is renamed in its place, the partial file staying as it was until then.
    private func finish(_ row: HLSProgress, or reason: DownloadError?) async -> TransferOutcome {
        if let reason {
            guard row.segmentsDone > 0 else { return .failed(reason, bytes: 0) }
            fetcher.log("download \(id): \(reason); keeping the \(row.segmentsDone) segment(s) recorded")
        }
        if row.segmentsDone == 0 { return .failed(.playlist(url: row.playlistURL, reason: .emptyPlaylist), bytes: 0) }
        let part = files.part
        var source = part
        if !row.periodStarts.isEmpty, let repair = fetcher.repair {
            let joined = files.joined, starts = row.periodStarts
            let outcome = await Self.offThread { repair.repair(part, periodStarts: starts, output: joined) }
            if Task.isCancelled {
                unlink(joined)
                return .stopped
            }
            switch outcome {
            case .notNeeded:
                unlink(joined)
            case .repaired(let kept, let retimed, let reencoded):
                source = joined
                fetcher.log("download \(id): \(starts.count + 1) periods made one stream: the first \(kept) bytes kept, "
                            + "\(retimed) period(s) retimed, \(reencoded) re-encoded")
            case .failed(let why):
                unlink(joined)
                fetcher.log("download \(id): its \(starts.count + 1) periods kept as they came: \(why)")
            }
        }
        guard rename(source, record.path) == 0 else {
            return .failed(Disk.error(errno: errno, path: record.path), bytes: row.bytes)
        }
        if source != part { unlink(part) }
        files.removePieces()
        try? fetcher.store.deleteHLSProgress(downloadID: id)
        return .completed(bytes: Disk.size(of: record.path) ?? row.bytes)
    }

    /// Runs blocking `work` on a thread of its own, so the cooperative pool's threads
    /// (two on a two-core machine) keep running the other downloads meanwhile.
    private static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// The file's length, estimated from the bytes per second of media so far.
    private func estimate(_ row: HLSProgress, _ media: MediaPlaylist) -> Int64? {
        HLSJobArithmetic.estimate(bytes: row.bytes, recorded: row.recordedSeconds,
                                  of: media.isLive ? record.recordSeconds : media.totalDuration)
    }
}
