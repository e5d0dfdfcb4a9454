import Adapters
import Backoff
import Testing
@testable import Radio
import RadioAPI
import Store
import Synchronization
import TestSupport

/// The real database (through mhz's adapter) behind a switch that makes every write fail
/// as SQLite does on a full disk (`SQLITE_FULL`), and succeed again once room is made.
final class FillableStore: RadioStore {
    let database: MhzDatabase
    private let radio: RadioDatabase
    private let full = Mutex(false)

    init(_ database: MhzDatabase) {
        self.database = database
        radio = RadioDatabase(database)
    }

    /// Whether writes fail now.
    func setFull(_ value: Bool) { full.withLock { $0 = value } }

    private func checkRoom() throws(StorageFailure) {
        if full.withLock({ $0 }) { throw .diskFull("database or disk is full") }
    }

    func savePosition(_ position: PlaybackPosition) throws(StorageFailure) {
        try checkRoom()
        try radio.savePosition(position)
    }
    func lastPosition() throws(StorageFailure) -> PlaybackPosition? { try radio.lastPosition() }
    func position(sid: String) throws(StorageFailure) -> PlaybackPosition? { try radio.position(sid: sid) }
    func setSetting(_ key: String, _ value: String?) throws(StorageFailure) {
        try checkRoom()
        try radio.setSetting(key, value)
    }
    func setting(_ key: String) throws(StorageFailure) -> String? { try radio.setting(key) }
    func keepReport(_ report: Report) throws(StorageFailure) -> Int64 {
        try checkRoom()
        return try radio.keepReport(report)
    }
    func waitingReports() throws(StorageFailure) -> [StoredReport] { try radio.waitingReports() }
    func forgetReport(id: Int64) throws(StorageFailure) { try radio.forgetReport(id: id) }
}

/// A full disk loses nothing: the report that could not be written is said to be unsaved,
/// kept in memory, written at the courier's next try once there is room, and sent once.
struct FullDiskOutboxTests {
    @Test func aReportThatCouldNotBeWrittenIsWrittenWhenThereIsRoomAndSentOnce() async throws {
        let store = FillableStore(try MhzDatabase())
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let player = FakePlayer()
        let clock = SteppedClock()
        let session = RadioSession(service: service, player: player, store: store,
                                   configuration: .init(retry: Backoff(initial: 1, cap: 8)), clock: clock.clock)
        let errors = Mutex<[RadioError]>([])
        let narration = Task {
            for await event in session.events { if case .error(let error) = event { errors.withLock { $0.append(error) } } }
        }
        defer { narration.cancel() }
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        player.emit(.started(player.lastItem, duration: 30))

        service.setDown(true)
        store.setFull(true)
        await session.send(.like)
        #expect(await eventually { errors.withLock { $0.contains(.diskFull("database or disk is full")) } })
        #expect(try store.database.pendingReports().isEmpty, "nothing could be written")
        #expect(await eventually { await session.snapshot().pendingReports == 1 }, "but the like waits, in memory")

        // Still full at the next try: still unwritten; then room is made, and the try after
        // that writes it (a crash from then on keeps it) while the station is still down.
        #expect(await eventually { clock.pending > 0 })
        clock.fire()
        #expect(await eventually { service.reports.filter { $0.type == .rate }.count == 2 })
        #expect(try store.database.pendingReports().isEmpty)
        store.setFull(false)
        #expect(await eventually { clock.pending > 0 })
        clock.fire()
        #expect(await eventually { (try? store.database.pendingReports().map(\.type)) == ["r"] })
        #expect(service.delivered.filter { $0.type == .rate }.isEmpty)

        service.setDown(false)
        // The retry timer is set after the last failed try returns: fire it once it is.
        #expect(await eventually { clock.pending > 0 })
        clock.fire()
        #expect(await eventually { (try? store.database.pendingReports().isEmpty) == true })
        #expect(await eventually {
            clock.fire()
            return clock.pending == 0
        })
        #expect(service.delivered.filter { $0.type == .rate }.map(\.sid) == ["1"], "sent once")
        #expect(await session.snapshot().pendingReports == 0)
    }
}
