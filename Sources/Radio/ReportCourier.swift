import Backoff
import Foundation
import RadioAPI

/// Delivers feedback reports (`e r u s b`) to the station one at a time, in the order they
/// were made, and keeps them in the outbox until the station has answered, so a like or
/// a trash made while it is unreachable reaches it when it returns: in order, once, also
/// after a restart.
///
/// Each report is written to the outbox before it is sent (by the session, before the radio
/// tells anyone of the like or trash it carries) and removed when the station answers. A
/// report that could not be written (a full disk) is kept in memory, sent all the same, and
/// written at the courier's next try while it still waits. What it does with a failure is
/// the report rule (docs/ARCHITECTURE.md §2, ``ServiceFailure/keepsReport``): no answer,
/// or "not now", stops the line and retries later with backoff, or at once when ``kick()``
/// says the station answered something else; any other answer (the station's word on this
/// report, which it would give again) drops that report and goes on.
///
/// Delivery is at least once, and once wherever the courier can know: a report the station
/// answered is never sent again. Two cases send one report twice, since a request carries
/// no id by which the station could tell a repeat: an answer lost on its way back (the
/// station recorded the try, the courier sees a failure and tries again later), and a crash
/// between the station's answer and the removal (sent again on restart).
///
/// While the line is blocked, the session hears of it once (the failure, and when the next
/// try is), and a report that waits for a list (`s`, `b`) is answered as failed at once,
/// so the radio fetches with its own backoff instead of waiting for the line.
actor ReportCourier {
    /// What happened to a report: the request id the machine gave it (nil for reports
    /// carried over from an earlier run, or already answered as failed) and the outcome.
    typealias Outcome = @Sendable (_ requestID: Int?, _ result: Result<[Track], ServiceFailure>) async -> Void

    private struct Item {
        /// The outbox row, when it was stored.
        var rowID: Int64?
        var report: Report
        var requestID: Int?
        /// Writing it to the outbox failed: written again at the next try while it waits.
        var unsaved = false
    }

    private let service: any RadioService
    private let store: (any ReportOutboxStore)?
    private let backoff: Backoff
    private let clock: RetryClock
    private var outcome: Outcome = { _, _ in }
    private var onCount: @Sendable (Int) async -> Void = { _ in }
    private var onRetry: @Sendable (Date) async -> Void = { _ in }
    private var onUnreadable: @Sendable (String) async -> Void = { _ in }
    private var line: [Item] = []
    private var draining = false
    private var attempt = 0
    private var retry: Task<Void, Never>?
    /// The failure that blocks the line, once the session has been told of it.
    private var blockage: ServiceFailure?

    /// Creates a courier that sends through `service`, forgets reports from `store` once
    /// answered, and waits by `backoff` on `clock` between tries of a blocked line.
    init(service: any RadioService, store: (any ReportOutboxStore)?, backoff: Backoff, clock: RetryClock) {
        self.service = service
        self.store = store
        self.backoff = backoff
        self.clock = clock
    }

    /// Connects the courier to its session and takes over the reports an earlier run left.
    /// `onCount` hears how many reports wait, `onRetry` when a blocked line is tried again,
    /// `onUnreadable` the type letter of each row that is no report it can send (such a
    /// row is skipped and forgotten, never sent as something else).
    func start(outcome: @escaping Outcome, onCount: @escaping @Sendable (Int) async -> Void,
               onRetry: @escaping @Sendable (Date) async -> Void = { _ in },
               onUnreadable: @escaping @Sendable (String) async -> Void = { _ in }) async throws(StorageFailure) {
        self.outcome = outcome
        self.onCount = onCount
        self.onRetry = onRetry
        self.onUnreadable = onUnreadable
        var carried: [Item] = []
        let submitted = Set(line.compactMap(\.rowID))
        for row in try store?.waitingReports() ?? [] {
            switch row {
            case .readable(let id, let report):
                // A row submitted in this run already is in line with its request.
                guard !submitted.contains(id) else { continue }
                carried.append(Item(rowID: id, report: report, requestID: nil))
            case .unreadable(let id, let type):
                try store?.forgetReport(id: id)
                await onUnreadable(type)
            }
        }
        line = carried + line
        await onCount(line.count)
        await drain()
    }

    /// Queues a report behind the ones already waiting and delivers what it can. `rowID` is
    /// its outbox row, nil when writing it failed (it is written again at the next try).
    func submit(_ report: Report, requestID: Int, rowID: Int64?) async {
        let unsaved = rowID == nil && store != nil
        if let blockage, report.type.expectsList {
            // The line is blocked: the list this report asks for will not come soon.
            line.append(Item(rowID: rowID, report: report, requestID: nil, unsaved: unsaved))
            await onCount(line.count)
            await outcome(requestID, .failure(blockage))
            return
        }
        line.append(Item(rowID: rowID, report: report, requestID: requestID, unsaved: unsaved))
        await onCount(line.count)
        await drain()
    }

    /// The station answered another request: try the waiting reports now.
    func kick() async {
        guard !line.isEmpty, retry != nil else { return }
        retry?.cancel()
        retry = nil
        await drain()
    }

    /// Stops retrying (the session is quitting); what is left stays in the outbox.
    func stop() {
        retry?.cancel()
        retry = nil
    }

    private func drain() async {
        guard !draining, retry == nil else { return }
        draining = true
        defer { draining = false }
        saveUnsaved()
        while let head = line.first {
            let result: Result<[Track], ServiceFailure>
            do throws(ServiceFailure) {
                result = .success(try await service.send(head.report))
            } catch {
                result = .failure(error)
            }
            if case .failure(let failure) = result, failure.keepsReport {
                // Tell the machine: always for a report it waits on (a skip's missing
                // answer), else once per blockage, so the screen says the station is
                // down. The report itself stays first in line.
                let id = head.requestID
                line[0].requestID = nil
                if id != nil || blockage == nil { await outcome(id, result) }
                blockage = failure
                // Reports queued behind it that wait for a list will not get one soon either.
                for index in line.indices.dropFirst() where line[index].report.type.expectsList {
                    guard let waiting = line[index].requestID else { continue }
                    line[index].requestID = nil
                    await outcome(waiting, result)
                }
                await onRetry(scheduleRetry())
                return
            }
            line.removeFirst()
            attempt = 0
            blockage = nil
            if let id = head.rowID { try? store?.forgetReport(id: id) }
            await onCount(line.count)
            await outcome(head.requestID, result)
        }
    }

    /// Sets the retry timer; returns when it fires.
    private func scheduleRetry() -> Date {
        let delay = backoff.wait(attempt: attempt)
        attempt += 1
        let clock = self.clock
        retry = Task { [weak self] in
            do { try await clock.sleep(seconds: delay) } catch { return }
            guard !Task.isCancelled else { return }
            await self?.retryFired()
        }
        return Date().addingTimeInterval(delay)
    }

    /// Writes the reports whose outbox write failed, oldest first, stopping at the first
    /// that fails again (the disk is still full): a crash from here on keeps them.
    private func saveUnsaved() {
        guard let store else { return }
        for index in line.indices where line[index].unsaved {
            guard let rowID = try? store.keepReport(line[index].report) else { return }
            line[index].rowID = rowID
            line[index].unsaved = false
        }
    }

    private func retryFired() async {
        retry = nil
        await drain()
    }
}
