import Backoff
import Foundation
import Synchronization
import Testing
@testable import Radio
import RadioAPI
import TestSupport

/// The report courier on its own, between a station in memory (``FakeService``), an outbox
/// in memory and a clock the test moves (``SteppedClock``): the order, the retries, what it
/// drops, what it takes over from an earlier run, and everything it tells its session.
struct ReportCourierTests {
    /// The report outbox in memory: rows in order, and every write and removal asked of it.
    /// While `full`, writes fail as on a full disk.
    final class MemoryOutbox: ReportOutboxStore {
        private struct State {
            var next: Int64 = 1
            var rows: [StoredReport] = []
            var kept: [String] = []
            var forgotten: [Int64] = []
            var full = false
        }
        private let state = Mutex(State())

        /// An outbox holding `rows` already (what an earlier run left).
        init(rows: [StoredReport] = []) {
            state.withLock { s in
                s.rows = rows
                s.next = (rows.map(Self.id).max() ?? 0) + 1
            }
        }

        /// Reports written, as `type sid`, in order.
        var kept: [String] { state.withLock { $0.kept } }
        /// Row ids removed, in order.
        var forgotten: [Int64] { state.withLock { $0.forgotten } }
        /// The row ids still there.
        var waiting: [Int64] { state.withLock { $0.rows.map(Self.id) } }
        /// Writes fail while this holds.
        func setFull(_ full: Bool) { state.withLock { $0.full = full } }

        func keepReport(_ report: Report) throws(StorageFailure) -> Int64 {
            try state.withLock { s throws(StorageFailure) -> Int64 in
                guard !s.full else { throw .diskFull("no space left on device") }
                let id = s.next
                s.next += 1
                s.rows.append(.readable(id: id, report))
                s.kept.append("\(report.type.rawValue) \(report.sid ?? "-")")
                return id
            }
        }

        func waitingReports() throws(StorageFailure) -> [StoredReport] { state.withLock { $0.rows } }

        func forgetReport(id: Int64) throws(StorageFailure) {
            state.withLock { s in
                s.rows.removeAll { Self.id($0) == id }
                s.forgotten.append(id)
            }
        }

        private static func id(_ row: StoredReport) -> Int64 {
            switch row {
            case .readable(let id, _), .unreadable(let id, _): id
            }
        }
    }

    /// What the courier told its session, in order: outcomes as `id: ok` / `id: failure`
    /// (`-` for no request id), counts as `count N`, retries as `retry`, skipped rows as
    /// `unreadable X`.
    final class Told: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        func clear() { lines.withLock { $0.removeAll() } }

        /// Starts `courier` with this as its session.
        func start(_ courier: ReportCourier) async throws {
            try await courier.start(
                outcome: { id, result in
                    let said: String
                    switch result {
                    case .success(let tracks): said = "ok \(tracks.map(\.sid).joined(separator: ","))"
                    case .failure(let failure): said = "\(failure)"
                    }
                    self.add("\(id.map(String.init) ?? "-"): \(said)")
                },
                onCount: { self.add("count \($0)") },
                onRetry: { _ in self.add("retry") },
                onUnreadable: { self.add("unreadable \($0)") })
        }
    }

    func report(_ type: ReportType, _ sid: Int) -> Report { Report(type: type, channel: "0", sid: "\(sid)", playedTime: 0) }

    func line(_ service: FakeService) -> [String] { service.reports.map { "\($0.type.rawValue) \($0.sid ?? "-")" } }

    /// Submits `report` as the session does: written to the outbox first, then handed over.
    func submit(_ report: Report, id: Int, to courier: ReportCourier, outbox: MemoryOutbox) async {
        await courier.submit(report, requestID: id, rowID: try? outbox.keepReport(report))
    }

    @Test func reportsGoOneAtATimeInOrderAndLeaveTheOutboxOnceAnswered() async throws {
        let service = FakeService(lists: [[t(7), t(8)]])
        let outbox = MemoryOutbox()
        let clock = SteppedClock()
        let courier = ReportCourier(service: service, store: outbox, backoff: .constant(1), clock: clock.clock)
        let told = Told()
        try await told.start(courier)
        await submit(report(.rate, 1), id: 1, to: courier, outbox: outbox)
        await submit(report(.unrate, 1), id: 2, to: courier, outbox: outbox)
        await submit(report(.skip, 1), id: 3, to: courier, outbox: outbox)
        #expect(line(service) == ["r 1", "u 1", "s 1"])
        #expect(outbox.forgotten == [1, 2, 3] && outbox.waiting.isEmpty)
        // Each report's answer goes to the request that made it; the skip's is the list.
        #expect(told.all == ["count 0", "count 1", "count 0", "1: ok ", "count 1", "count 0", "2: ok ",
                             "count 1", "count 0", "3: ok 7,8"])
        #expect(clock.asked.isEmpty, "no retry was ever set")
    }

    @Test func anUnreachableStationBlocksTheLineUntilTheRetryFindsItBack() async throws {
        let service = FakeService(lists: [[t(7)]])
        let outbox = MemoryOutbox()
        let clock = SteppedClock()
        let courier = ReportCourier(service: service, store: outbox, backoff: Backoff(initial: 1, cap: 4), clock: clock.clock)
        let told = Told()
        try await told.start(courier)
        service.setDown(true)
        await submit(report(.rate, 1), id: 1, to: courier, outbox: outbox)
        // Blocked: the like stays first in line and waits for the clock; the session hears
        // of the failure once, and when the next try is.
        #expect(line(service) == ["r 1"])
        #expect(told.all == ["count 0", "count 1", "1: unreachable(\"Connection refused\")", "retry"])
        #expect(await eventually { clock.pending == 1 })
        told.clear()
        // Behind a blocked line, a report that waits for a list is answered as failed at
        // once (the radio fetches on its own), and one that does not just waits, unsent.
        await submit(report(.skip, 1), id: 2, to: courier, outbox: outbox)
        await submit(report(.unrate, 1), id: 3, to: courier, outbox: outbox)
        #expect(told.all == ["count 2", "2: unreachable(\"Connection refused\")", "count 3"])
        #expect(line(service) == ["r 1"])
        told.clear()
        // Still down at the retry: the head is tried again, with the next wait of the schedule.
        clock.fire()
        #expect(await eventually { service.reports.count == 2 })
        #expect(await eventually { clock.pending == 1 })
        #expect(clock.asked == [1, 2])
        #expect(await eventually { told.all == ["retry"] }, "the same failure is not told twice: \(told.all)")
        told.clear()
        service.setDown(false)
        clock.fire()
        #expect(await eventually { outbox.waiting.isEmpty })
        #expect(line(service) == ["r 1", "r 1", "r 1", "s 1", "u 1"])
        #expect(service.delivered.map(\.type) == [.rate, .skip, .unrate], "each answered once, in the order made")
        #expect(outbox.forgotten == [1, 2, 3])
        // Only the unrate still had its request waiting; the skip's was answered already.
        #expect(await eventually { told.all == ["count 2", "-: ok ", "count 1", "-: ok 7", "count 0", "3: ok "] },
                "\(told.all)")
        #expect(clock.pending == 0)
    }

    @Test func aRefusedReportIsDroppedAndTheLineGoesOn() async throws {
        let service = FakeService(lists: [])
        service.refuse(sid: "1")
        let outbox = MemoryOutbox()
        let clock = SteppedClock()
        let courier = ReportCourier(service: service, store: outbox, backoff: .constant(1), clock: clock.clock)
        let told = Told()
        try await told.start(courier)
        await submit(report(.rate, 1), id: 1, to: courier, outbox: outbox)
        await submit(report(.rate, 2), id: 2, to: courier, outbox: outbox)
        #expect(line(service) == ["r 1", "r 2"])
        #expect(service.delivered.map { $0.sid } == ["2"])
        #expect(outbox.forgotten == [1, 2], "the refused report is forgotten too: it would be refused again")
        #expect(told.all == ["count 0", "count 1", "count 0", "1: rejected(\"invalid_sid\")", "count 1", "count 0", "2: ok "])
        #expect(clock.asked.isEmpty)
    }

    @Test func startTakesOverAnEarlierRunsReportsFirstAndSkipsRowsItCannotRead() async throws {
        let service = FakeService(lists: [])
        let outbox = MemoryOutbox(rows: [.readable(id: 4, report(.rate, 1)), .unreadable(id: 5, type: "x"),
                                         .readable(id: 6, report(.ban, 2))])
        let clock = SteppedClock()
        let courier = ReportCourier(service: service, store: outbox, backoff: .constant(1), clock: clock.clock)
        // A report of this run reaches the courier before its start (the session starts
        // both at once) and finds the station down: it waits for the retry.
        service.setDown(true)
        await submit(report(.unrate, 3), id: 9, to: courier, outbox: outbox)
        #expect(line(service) == ["u 3"])
        #expect(await eventually { clock.pending == 1 })
        let told = Told()
        try await told.start(courier)
        // The unreadable row is forgotten unsent; the earlier run's two go before this
        // run's own, which is not taken over a second time.
        #expect(told.all == ["unreadable x", "count 3"])
        #expect(outbox.forgotten == [5])
        service.setDown(false)
        clock.fire()
        #expect(await eventually { outbox.waiting.isEmpty })
        #expect(line(service) == ["u 3", "r 1", "b 2", "u 3"])
        #expect(outbox.forgotten == [5, 4, 6, 7])
        #expect(await eventually {
            told.all == ["unreadable x", "count 3", "count 2", "-: ok ", "count 1", "-: ok ", "count 0", "-: ok "]
        }, "\(told.all)")
    }

    @Test func aKickRetriesABlockedLineAtOnceAndAReportNotWrittenIsWrittenAtTheNextTry() async throws {
        let service = FakeService(lists: [])
        let outbox = MemoryOutbox()
        let clock = SteppedClock()
        let courier = ReportCourier(service: service, store: outbox, backoff: .constant(30), clock: clock.clock)
        let told = Told()
        try await told.start(courier)
        service.setDown(true)
        outbox.setFull(true)
        // The disk is full: the like is sent all the same, from memory.
        await submit(report(.rate, 1), id: 1, to: courier, outbox: outbox)
        #expect(line(service) == ["r 1"] && outbox.kept.isEmpty)
        #expect(await eventually { clock.pending == 1 })
        // Room again, and the station answered something else: the courier tries at once,
        // writing the report first, and cancels the 30 s wait.
        outbox.setFull(false)
        service.setDown(false)
        await courier.kick()
        #expect(outbox.kept == ["r 1"])
        #expect(service.delivered.map(\.type) == [.rate])
        #expect(outbox.forgotten == [1] && outbox.waiting.isEmpty)
        #expect(await eventually { clock.pending == 0 }, "the wait was taken back")
        // Nothing is waiting: a kick does nothing.
        await courier.kick()
        #expect(line(service) == ["r 1", "r 1"])
    }
}
