import Adapters
import Backoff
import Foundation
import Testing
@testable import Radio
import RadioAPI
import Store
import Synchronization
import TestSupport

/// Nothing the listener says is lost while the station is unreachable: reports wait in the
/// outbox and reach the station in order, once, also across a restart.
struct ReportOutboxTests {
    func deliveredLine(_ service: FakeService) -> [String] {
        service.delivered.filter { !$0.type.expectsList || $0.type == .skip || $0.type == .ban }
            .map { "\($0.type.rawValue) \($0.sid ?? "-")" }
    }

    /// Every report whose kind is `type`, as the station got it (answered or not).
    func attempts(_ service: FakeService, _ type: ReportType) -> Int {
        service.reports.filter { $0.type == type }.count
    }

    /// Runs the rest of the retry schedule on `clock` until nothing waits on it any more:
    /// from then on no retry is left that could send anything again.
    func runOutTheSchedule(_ clock: SteppedClock, _ session: RadioSession) async -> Bool {
        await eventually {
            clock.fire()
            return clock.pending == 0
        }
    }

    @Test func reportsMadeWhileDownArriveInOrderOnceWhenTheStationReturns() async throws {
        let database = try MhzDatabase()
        let service = FakeService(lists: [[t(1), t(2), t(3), t(4)], [t(5), t(6)], [t(7)]])
        let player = FakePlayer()
        let clock = SteppedClock()
        let session = RadioSession(service: service, player: player, store: RadioDatabase(database),
                                   configuration: .init(retry: Backoff(initial: 1, cap: 8)), clock: clock.clock)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        player.emit(.started(player.lastItem, duration: 30))

        service.setDown(true)
        await session.send(.like)      // r 1
        await session.send(.trash)     // b 1, and song 2 starts at once
        #expect(await eventually { player.played.count == 2 }, "trash does not wait for the station")
        player.emit(.started(player.lastItem, duration: 30))
        await session.send(.unlike)    // u 2
        #expect(await eventually { (try? database.pendingReports().count) == 3 })
        // The count follows the courier, a step behind the outbox's write.
        #expect(await eventually { await session.snapshot().pendingReports == 3 })
        #expect(deliveredLine(service).isEmpty)
        // Three turns of the blocked line's retry timer, each trying the like again.
        for tries in 2...4 {
            #expect(await eventually { clock.pending > 0 })
            clock.fire()
            #expect(await eventually { attempts(service, .rate) == tries }, "\(service.reports)")
        }
        #expect(deliveredLine(service).isEmpty)

        service.setDown(false)
        // The retry timer is set after the last failed try returns: fire it once it is.
        #expect(await eventually { clock.pending > 0 })
        clock.fire()
        #expect(await eventually { (try? database.pendingReports().count) == 0 }, "\(service.reports)")
        #expect(deliveredLine(service) == ["r 1", "b 1", "u 2"])
        #expect(await session.snapshot().pendingReports == 0)
        // Past the whole schedule: no wait is left, and each report went once.
        #expect(await runOutTheSchedule(clock, session))
        #expect(deliveredLine(service) == ["r 1", "b 1", "u 2"])
        #expect(attempts(service, .rate) == 5, "four tries while down, one that was answered")
        #expect(attempts(service, .ban) == 1 && attempts(service, .unrate) == 1, "\(service.reports)")
        #expect(await session.snapshot().nextRetry == nil)
    }

    @Test func aBlockedLineSaysWhenItRetriesAndATrashBehindItDoesNotWaitForIt() async throws {
        let database = try MhzDatabase()
        // Two queued behind the first song: nothing is fetched early until the trash.
        let service = FakeService(lists: [[t(1), t(2), t(3)], [t(4), t(5)], [t(6)]])
        let player = FakePlayer()
        let clock = SteppedClock()
        let session = RadioSession(service: service, player: player, store: RadioDatabase(database),
                                   configuration: .init(retry: .constant(0.3)), clock: clock.clock)
        let errors = Mutex(0)
        let narration = Task {
            for await event in session.events { if case .error = event { errors.withLock { $0 += 1 } } }
        }
        defer { narration.cancel() }
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        player.emit(.started(player.lastItem, duration: 30))

        service.setDown(true)
        await session.send(.like)      // r 1 blocks the line
        #expect(await eventually { service.reports.contains { $0.type == .rate } })
        #expect(await eventually { clock.pending == 1 }, "the line waits for its retry")
        let retrying = await eventually { await session.snapshot().nextRetry != nil }
        let snapshot = await session.snapshot()
        #expect(snapshot.problem == .service(.unreachable("Connection refused")))
        #expect(retrying && snapshot.nextRetry != nil, "the screen can say when the station is tried again")

        let errorsBefore = errors.withLock { $0 }
        await session.send(.trash)     // b 1 waits behind r 1; song 2 starts at once
        #expect(await eventually { player.played.count == 2 })
        // The radio hears at once that the trash's list will not come soon (an error of its
        // own, while the line still waits for its next try)…
        #expect(await eventually { errors.withLock { $0 } > errorsBefore })
        player.emit(.started(player.lastItem, duration: 30))
        // …so song 2's start fetches on its own (p, sent directly and retried with its own
        // backoff) instead of waiting for the line.
        #expect(await eventually { service.reports.contains { $0.type == .playing && $0.sid == "2" } },
                "\(service.reports)")
        #expect(deliveredLine(service).isEmpty)

        service.setDown(false)
        // The retry timer is set after the last failed try returns: fire it once it is.
        #expect(await eventually { clock.pending > 0 })
        clock.fire()
        #expect(await eventually { (try? database.pendingReports().count) == 0 }, "\(service.reports)")
        #expect(deliveredLine(service) == ["r 1", "b 1"])
        #expect(await runOutTheSchedule(clock, session))
        #expect(deliveredLine(service) == ["r 1", "b 1"], "each once, also past the whole retry schedule")
        #expect(attempts(service, .ban) == 1, "the trash waited behind the like and went once")
        #expect(await session.snapshot().problem == nil)
    }

    @Test func reportsLeftByAnEarlierRunGoFirstAndOnce() async throws {
        let dir = try TemporaryDirectory(prefix: "mhz-outbox")
        let path = dir.path("mhz.sqlite")
        do {
            let earlier = try MhzDatabase(path: path)
            _ = try earlier.enqueueReport(OutboxEntry(type: "r", channel: "0", sid: "41", history: nil, playedTime: 3))
            _ = try earlier.enqueueReport(OutboxEntry(type: "b", channel: "0", sid: "42", history: "|41:r|42:b",
                                                      playedTime: 7))
        }
        let database = try MhzDatabase(path: path)
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let session = RadioSession(service: service, player: FakePlayer(), store: RadioDatabase(database))
        await session.start(channelID: "0")
        #expect(await eventually { (try? database.pendingReports().isEmpty) == true })
        let first = try #require(service.reports.first)
        #expect(first == Report(type: .rate, channel: "0", sid: "41", playedTime: 3))
        #expect(service.reports[1] == Report(type: .ban, channel: "0", sid: "42", history: ReportHistory.parse("|41:r|42:b"), playedTime: 7))
        #expect(service.reports.filter { $0.sid == "41" || $0.sid == "42" }.count == 2)
    }

    @Test func aRowOfUnknownTypeIsSkippedAndForgottenNeverSentAsAnotherReport() async throws {
        let database = try MhzDatabase()
        _ = try database.enqueueReport(OutboxEntry(type: "r", channel: "0", sid: "41", history: nil, playedTime: 3))
        _ = try database.enqueueReport(OutboxEntry(type: "x", channel: "0", sid: "42", history: nil, playedTime: 5))
        _ = try database.enqueueReport(OutboxEntry(type: "n", channel: "0", sid: nil, history: nil, playedTime: nil))
        _ = try database.enqueueReport(OutboxEntry(type: "e", channel: "0", sid: nil, history: nil, playedTime: 9))
        _ = try database.enqueueReport(OutboxEntry(type: "u", channel: "0", sid: "43", history: nil, playedTime: 4))
        #expect(try RadioDatabase(database).waitingReports().map(\.kind) == ["41 r", "unreadable x", "unreadable n", "unreadable e", "43 u"])

        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let session = RadioSession(service: service, player: FakePlayer(), store: RadioDatabase(database))
        let events = session.events
        await session.start(channelID: "0")
        #expect(await eventually { (try? database.pendingReports().isEmpty) == true })
        #expect(deliveredLine(service).filter { $0.hasPrefix("r") || $0.hasPrefix("u") || $0.hasPrefix("e") }
                == ["r 41", "u 43"], "the unreadable rows are not sent as anything")
        #expect(!service.reports.contains { $0.sid == "42" })
        let skipped = Mutex<[String]>([])
        let reader = Task {
            for await event in events {
                if case .error(.unreadableReport(let type)) = event { skipped.withLock { $0.append(type) } }
            }
        }
        defer { reader.cancel() }
        #expect(await eventually { skipped.withLock { $0.count } == 3 })
        #expect(skipped.withLock { $0 } == ["x", "n", "e"])
    }

    @Test func aReportTheStationRefusesIsDroppedAndTheLineGoesOn() async throws {
        let database = try MhzDatabase()
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        service.refuse(sid: "1")
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: RadioDatabase(database))
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        player.emit(.started(player.lastItem, duration: 30))
        await session.send(.like)
        await session.send(.skip)
        #expect(await eventually { player.played.count == 2 })
        player.emit(.started(player.lastItem, duration: 30))
        await session.send(.like)
        #expect(await eventually { deliveredLine(service) == ["r 2"] })
        #expect(try database.pendingReports().isEmpty)
        #expect(service.reports.filter { $0.type == .rate && $0.sid == "1" }.count == 1, "refused once, not retried")
    }
}

extension StoredReport {
    /// `sid type` for a readable row, `unreadable type` for the others.
    var kind: String {
        switch self {
        case .readable(_, let report): "\(report.sid ?? "-") \(report.type.rawValue)"
        case .unreadable(_, let type): "unreadable \(type)"
        }
    }
}
