import Backoff
import Foundation
import Scrobble
import Synchronization
import Testing

/// The courier over fakes of its two ports: what it sends, in which order and batches,
/// what it keeps and what it drops.
struct ScrobbleCourierTests {
    /// The outbox in memory.
    final class MemoryOutbox: ScrobbleOutboxStore {
        let rows = Mutex<[PendingScrobble]>([])
        let next = Mutex<Int64>(1)
        let full = Mutex(false)

        func keepScrobble(_ action: ScrobbleAction, for service: ScrobbleService) throws(ScrobbleFailure) -> Int64 {
            if full.withLock({ $0 }) { throw .storage("database or disk is full", diskFull: true) }
            let id = next.withLock { value in defer { value += 1 }; return value }
            rows.withLock { $0.append(PendingScrobble(id: id, service: service, action: action)) }
            return id
        }

        func waitingScrobbles(for service: ScrobbleService) throws(ScrobbleFailure) -> [PendingScrobble] {
            rows.withLock { $0.filter { $0.service == service } }
        }

        func forgetScrobbles(ids: [Int64]) throws(ScrobbleFailure) {
            rows.withLock { $0.removeAll { ids.contains($0.id) } }
        }
    }

    /// Records each request's label and body; answers with the statuses scripted, then 200.
    final class ScriptedService: ScrobbleTransport {
        let sent = Mutex<[(label: String, body: String)]>([])
        let answers = Mutex<[Result<Int, ScrobbleFailure>]>([])

        func send(_ request: ScrobbleRequest) async throws(ScrobbleFailure) -> ScrobbleReply {
            sent.withLock { $0.append((request.label, String(decoding: request.body ?? Data(), as: UTF8.self))) }
            let answer = answers.withLock { $0.isEmpty ? .success(200) : $0.removeFirst() }
            switch answer {
            case .success(let status):
                let body = status == 200 ? #"{"ok":1}"# : #"{"error":\#(status == 403 ? 9 : 6),"message":"no"}"#
                return ScrobbleReply(status: status, body: Data(body.utf8))
            case .failure(let failure): throw failure
            }
        }

        var labels: [String] { sent.withLock { $0.map(\.label) } }
    }

    /// What the courier noted, in order.
    final class Notes: Sendable {
        let list = Mutex<[ScrobbleCourier.Note]>([])
        var all: [ScrobbleCourier.Note] { list.withLock { $0 } }
    }

    private static let lastFM = LastFM(url: URL(string: "http://127.0.0.1:9/2.0/")!, apiKey: "k", secret: "s", sessionKey: "x")

    private func song(_ n: Int) -> PlayedSong {
        PlayedSong(artist: "Artist \(n)", title: "Song \(n)", duration: 200, startedAt: Int64(1_000 + n))
    }

    /// The courier's backoff wait, stopped: no retry comes by itself, and the wait ends only
    /// when the courier cancels it, with `CancellationError` as a clock's sleep would.
    private static let untilCancelled: @Sendable (Double) async throws -> Void = { _ in
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        await withTaskCancellationHandler {
            for await _ in stream {}
        } onCancel: {
            continuation.finish()
        }
        throw CancellationError()
    }

    private func courier(_ service: ScriptedService, _ outbox: MemoryOutbox,
                         notes: Notes) async -> ScrobbleCourier {
        let courier = ScrobbleCourier(endpoint: Self.lastFM, transport: service, store: outbox,
                                      backoff: .constant(1), sleep: Self.untilCancelled)
        await courier.start { note in notes.list.withLock { $0.append(note) } }
        await courier.deliver()
        return courier
    }

    @Test func listensLeftInTheOutboxGoFiftyAtATimeInOrderThenTheLikeBehindThem() async throws {
        let outbox = MemoryOutbox()
        for n in 0..<51 { _ = try outbox.keepScrobble(.listen(song(n)), for: .lastFM) }
        _ = try outbox.keepScrobble(.love(song(51)), for: .lastFM)
        _ = try outbox.keepScrobble(.listen(song(99)), for: .listenBrainz)
        let service = ScriptedService()
        let notes = Notes()
        _ = await courier(service, outbox, notes: notes)
        #expect(service.labels == ["track.scrobble", "track.scrobble", "track.love"])
        let first = service.sent.withLock { $0[0].body }
        #expect(first.contains("timestamp%5B49%5D=1049&") && !first.contains("%5B50%5D"))
        #expect(service.sent.withLock { $0[1].body }.contains("artist%5B0%5D=Artist%2050&"))
        #expect(notes.all == [.delivered(50), .delivered(1), .delivered(1)])
        // The other service's row is not this courier's.
        #expect(outbox.rows.withLock { $0.map(\.service) } == [.listenBrainz])
    }

    @Test func aServiceDownKeepsTheLineUntilTheRetryAndARefusalDropsOnlyItsScrobble() async throws {
        let outbox = MemoryOutbox()
        let service = ScriptedService()
        service.answers.withLock { $0 = [.failure(.unreachable("Couldn't connect to server")), .success(400)] }
        let notes = Notes()
        let courier = await courier(service, outbox, notes: notes)
        await courier.submit(.love(song(1)))
        await courier.submit(.listen(song(2)))
        await courier.deliver()
        // Blocked: the second waits for the retry (and a deliver() meanwhile sends nothing).
        await courier.deliver()
        #expect(service.labels == ["track.love"])
        #expect(outbox.rows.withLock { $0.count } == 2)
        await courier.retryNow()
        #expect(service.labels == ["track.love", "track.love", "track.scrobble"])
        #expect(notes.all == [
            .waiting(.unreachable("Couldn't connect to server"), retryIn: 1),
            .refused(.love(song(1)), .refused(status: 400, message: "error 6: no")), .delivered(1)])
        #expect(outbox.rows.withLock { $0.isEmpty })
    }

    @Test func refusedCredentialsStopTheLineKeepingEveryRowForTheNextRun() async throws {
        let outbox = MemoryOutbox()
        let service = ScriptedService()
        service.answers.withLock { $0 = [.success(403)] }
        let notes = Notes()
        let courier = await courier(service, outbox, notes: notes)
        await courier.submit(.listen(song(1)))
        await courier.submit(.listen(song(2)))
        await courier.deliver()
        await courier.retryNow()
        #expect(await courier.nowPlaying(song(3)) == nil)
        #expect(service.labels == ["track.scrobble"])
        #expect(notes.all == [.credentialsRefused(.credentials(status: 403, message: "error 9: no"))])
        #expect(outbox.rows.withLock { $0.count } == 2)
    }

    @Test func aScrobbleTheFullDiskCouldNotKeepIsSentAndKeptOnceThereIsRoom() async throws {
        let outbox = MemoryOutbox()
        let service = ScriptedService()
        service.answers.withLock { $0 = [.failure(.busy(status: 503, message: ""))] }
        let notes = Notes()
        let courier = await courier(service, outbox, notes: notes)
        outbox.full.withLock { $0 = true }
        await courier.submit(.listen(song(1)))
        await courier.deliver()
        #expect(outbox.rows.withLock { $0.isEmpty })
        outbox.full.withLock { $0 = false }
        // Written again before the next try; taken then.
        await courier.retryNow()
        #expect(service.labels == ["track.scrobble", "track.scrobble"])
        #expect(outbox.rows.withLock { $0.isEmpty })
        #expect(notes.all.last == .delivered(1))
    }
}
