import Foundation
import MusicLibrary

/// Following the folder served: rescans on demand and on a timer, each counted in the
/// metrics, and what the latest did.
extension Station {
    /// Rescans the library now: new files appear, removed ones disappear, changed ones are
    /// reread; song ids of files that stay are unchanged. Requests in flight finish with the
    /// library they started with.
    ///
    /// - Returns: what the scan did (``ScanSummary/read`` is 0 when nothing changed).
    /// - Throws: what ``init(configuration:)`` throws for a scan; the library served stays
    ///   as it was.
    @discardableResult
    public func rescan() async throws(StationError) -> ScanSummary {
        let loader = self.loader
        let served = library.snapshot
        let scan = try await Blocking.run(on: scans) { () throws(StationError) in try loader.load(keeping: served) }
        // The same library kept: nothing to replace, and the analysis goes on publishing for it.
        guard scan.library.facets.generation != served.facets.generation else { return scanned(scan.summary) }
        library.replace(with: scan.library, sound: sound?.table(for: scan.library) ?? .empty)
        if let sound {
            // Files new, changed or gone: measure what is not; otherwise the analysis (if
            // still under way) publishes for the library that replaced its own.
            if scan.summary.read > 0 || scan.summary.removed > 0 {
                sound.schedule(scan.library, publish: library.soundPublisher())
            } else {
                sound.follow(scan.library, publish: library.soundPublisher())
            }
        }
        return scanned(scan.summary)
    }

    /// Keeps a rescan's summary as the latest and counts the scan in the metrics.
    private func scanned(_ summary: ScanSummary) -> ScanSummary {
        latestScan.withLock { $0 = summary }
        metrics.libraryScanned(in: summary.duration)
        return summary
    }

    /// What the most recent scan (the first one, or the last rescan) did.
    public var lastScan: ScanSummary {
        latestScan.withLock { $0 }
    }

    /// Rescans the library every ``StationConfiguration/rescanInterval`` from now on, as a
    /// serving station does: for a station answered in-process (``respond(method:path:query:body:)``),
    /// which never calls ``start()``. Calling it again restarts the timer; ``stop()`` ends it.
    public func beginRescans() {
        startRescanTimer()
    }

    /// Rescans every ``StationConfiguration/rescanInterval`` while serving. A failed
    /// rescan (the folder briefly unreadable, say) keeps the library as it was and is
    /// logged; the next tick tries again.
    func startRescanTimer() {
        guard let interval = configuration.rescanInterval else { return }
        let logger = configuration.effectiveLogger
        let timer = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                do {
                    try await self.rescan()
                } catch {
                    logger.warning("rescan failed", metadata: ["error": .string("\(error)")])
                }
            }
        }
        rescanTimer.withLock { previous in
            previous?.cancel()
            previous = timer
        }
    }

    /// Ends the rescan timer, if one runs.
    func stopRescans() {
        rescanTimer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }
}
