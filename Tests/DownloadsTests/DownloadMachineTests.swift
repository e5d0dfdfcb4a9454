import Backoff
import Foundation
import Store
import Testing
@testable import Downloads

/// The download manager's decisions, as plain values: slots, failures, the user's actions.
struct DownloadMachineTests {
    static func record(_ id: Int64, state: DownloadRecord.State = .queued) -> DownloadRecord {
        var record = DownloadRecord(url: "http://example.test/\(id).mp3", title: "Song \(id)", artist: "A",
                                    path: "/music/A - Song \(id).mp3", createdAt: Date(timeIntervalSince1970: 0))
        record.id = id
        record.state = state
        return record
    }

    static func starts(_ effects: [DownloadMachine.Effect]) -> [Int64] {
        effects.compactMap { if case .start(let record) = $0 { record.id } else { nil } }
    }

    @Test func atMostMaxConcurrentRunOldestFirstAndAFinishedOneFreesASlot() {
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 3))
        var started: [Int64] = []
        for id in 1...5 { started += Self.starts(machine.handle(.add(Self.record(Int64(id))))) }
        #expect(started == [1, 2, 3])
        #expect(machine.tasks[4]?.state == .queued)
        let effects = machine.handle(.ended(2, .completed(bytes: 10)))
        #expect(Self.starts(effects) == [4])
        #expect(machine.tasks[2]?.state == .completed)
        #expect(machine.tasks[2]?.bytes == 10)
        // The completed task is stored before the next one starts.
        guard case .save(let saved)? = effects.first else { Issue.record("no save first: \(effects)"); return }
        #expect(saved.id == 2 && saved.state == .completed && saved.bytes == 10 && saved.total == 10)
    }

    @Test func aPassingFailureWaitsWithBackoffThenFailsAfterTheLastAttempt() throws {
        let retry = Backoff(initial: 2, cap: 60)
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 1, retry: retry, maxAttempts: 3))
        _ = machine.handle(.add(Self.record(1)))
        var effects = machine.handle(.ended(1, .failed(.network(detail: "reset"), bytes: 400)))
        #expect(machine.tasks[1]?.state == .waiting(reason: .network(detail: "reset"), attempt: 1))
        #expect(machine.tasks[1]?.bytes == 400)
        guard case .scheduleRetry(1, let delay, let token)? = effects.last else { Issue.record("\(effects)"); return }
        #expect(delay == 2)
        // A stale token does nothing; the right one queues and starts it again.
        #expect(machine.handle(.retryTimer(1, token: token + 100)).isEmpty)
        effects = machine.handle(.retryTimer(1, token: token))
        #expect(Self.starts(effects) == [1])
        effects = machine.handle(.ended(1, .failed(.stalled(seconds: 30), bytes: 800)))
        guard case .scheduleRetry(1, let second, let token2)? = effects.last else { Issue.record("\(effects)"); return }
        #expect(second == 4)
        _ = machine.handle(.retryTimer(1, token: token2))
        effects = machine.handle(.ended(1, .failed(.shortBody(got: 900, expected: 1000), bytes: 900)))
        #expect(machine.tasks[1]?.state == .failed(.shortBody(got: 900, expected: 1000)))
        #expect(!effects.contains { if case .scheduleRetry = $0 { true } else { false } })
        // The reason is stored, and read back after a restart.
        let stored = try #require(machine.tasks[1]?.record)
        #expect(DownloadMachine.restoredState(stored) == .failed(.shortBody(got: 900, expected: 1000)))
    }

    @Test func aLastingFailureFailsAtOnceAndTheUserCanRetry() {
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 1))
        _ = machine.handle(.add(Self.record(1)))
        let effects = machine.handle(.ended(1, .failed(.httpStatus(404), bytes: 0)))
        #expect(machine.tasks[1]?.state == .failed(.httpStatus(404)))
        #expect(!effects.contains { if case .scheduleRetry = $0 { true } else { false } })
        #expect(Self.starts(machine.handle(.resume(1))) == [1])
    }

    @Test func pauseStopsTheTransferAndKeepsTheBytesCancelDeletesThePartialFile() {
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 2))
        _ = machine.handle(.add(Self.record(1)))
        _ = machine.handle(.add(Self.record(2)))
        _ = machine.handle(.progress(1, bytes: 500, total: 1000, rate: 100))
        var effects = machine.handle(.pause(1))
        #expect(effects.contains(.stop(1)))
        #expect(machine.tasks[1]?.state == .paused)
        #expect(machine.tasks[1]?.bytes == 500)
        #expect(!effects.contains { if case .removeFiles = $0 { true } else { false } })
        // The stopped transfer's end changes nothing.
        #expect(machine.handle(.ended(1, .stopped)).isEmpty)
        effects = machine.handle(.cancel(2))
        #expect(effects.contains(.stop(2)))
        #expect(effects.contains(.removeFiles(path: "/music/A - Song 2.mp3", finished: false)))
        #expect(machine.tasks[2]?.state == .canceled)
        #expect(Self.starts(machine.handle(.resume(1))) == [1])
    }

    @Test func removeForgetsTheTaskAndDeletesEveryFile() {
        var machine = DownloadMachine()
        _ = machine.handle(.add(Self.record(1)))
        _ = machine.handle(.ended(1, .completed(bytes: 9)))
        let effects = machine.handle(.remove(1))
        #expect(effects == [.removeFiles(path: "/music/A - Song 1.mp3", finished: true), .delete(1)])
        #expect(machine.tasks[1] == nil)
    }

    @Test func restoreContinuesWhatWasUnderWayAndKeepsTheRest() {
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 3))
        let effects = machine.handle(.restore([Self.record(1, state: .running), Self.record(2, state: .waiting),
                                               Self.record(3, state: .paused), Self.record(4, state: .completed),
                                               Self.record(5, state: .canceled)]))
        #expect(Self.starts(effects) == [1, 2])
        #expect(machine.tasks[3]?.state == .paused)
        #expect(machine.tasks[4]?.state == .completed)
        #expect(machine.tasks[5]?.state == .canceled)
    }

    @Test func aControlMachineChangesTasksButStartsNoneAndLeavesRunningRowsAlone() {
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 0))
        let restored = machine.handle(.restore([Self.record(1, state: .running), Self.record(2, state: .paused)]))
        #expect(!restored.contains { if case .save = $0 { true } else { false } }, "the running process owns row 1")
        #expect(Self.starts(machine.handle(.resume(2))).isEmpty)
        let paused = machine.handle(.pause(1))
        #expect(paused.contains { if case .save(let record) = $0 { record.state == .paused } else { false } })
    }

    @Test func anotherProcessPausingOrFinishingATaskIsFollowed() {
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 2))
        _ = machine.handle(.add(Self.record(1)))
        _ = machine.handle(.add(Self.record(2)))
        var row = Self.record(1, state: .paused)
        var effects = machine.handle(.changedElsewhere(1, row))
        #expect(effects.contains(.stop(1)))
        #expect(!effects.contains { if case .save = $0 { true } else { false } }, "the other process stored it")
        #expect(machine.tasks[1]?.state == .paused)
        row = Self.record(2, state: .completed)
        row.bytes = 77
        effects = machine.handle(.changedElsewhere(2, row))
        #expect(machine.tasks[2]?.state == .completed)
        #expect(machine.tasks[2]?.bytes == 77)
        effects = machine.handle(.changedElsewhere(1, nil))
        #expect(machine.tasks[1] == nil)
    }

    @Test func aTaskHeldByAnotherProcessWaitsWithoutCountingOrStoring() {
        var machine = DownloadMachine(configuration: .init(maxConcurrent: 1, maxAttempts: 1))
        _ = machine.handle(.add(Self.record(1)))
        let effects = machine.handle(.ended(1, .failed(.heldElsewhere, bytes: 0)))
        #expect(machine.tasks[1]?.state == .waiting(reason: .heldElsewhere, attempt: 0))
        #expect(!effects.contains { if case .save = $0 { true } else { false } })
        #expect(effects.contains { if case .scheduleRetry(1, _, _) = $0 { true } else { false } })
    }
}
