import Backoff
import Foundation

/// Delivers one service's scrobbles in the order they were made and keeps each in the
/// outbox until the service has taken it, so a listen made offline, before a `kill -9` or
/// on a full disk reaches the service later: once, in order, also after a restart.
///
/// Each action is written to the outbox before it is sent and removed when the service
/// answers it. One that could not be written (a full disk) waits in memory, is sent all
/// the same, and is written at the next try while it still waits. A failure that keeps the
/// scrobble (no answer, "not now") stops the line and tries again after a wait by
/// `Backoff`; a refusal of one scrobble drops it and goes on; a refusal of who is asking
/// (a bad token, key or session) stops the line for this run, keeping every row for the
/// next, and is told once. Now-playing notices are sent at once and never kept: a late one
/// would be wrong.
public actor ScrobbleCourier {
    /// What the owner hears: a scrobble refused, the service refusing credentials, a line
    /// that is blocked, scrobbles taken, and the outbox count.
    public enum Note: Sendable, Equatable {
        /// These many scrobbles were taken by the service.
        case delivered(Int)
        /// One scrobble was refused for good and dropped (the service's words).
        case refused(ScrobbleAction, ScrobbleFailure)
        /// The service refuses the token, key or session: nothing more is sent this run.
        case credentialsRefused(ScrobbleFailure)
        /// The line is blocked by `failure`; tried again in `retryIn` seconds.
        case waiting(ScrobbleFailure, retryIn: Double)
        /// The outbox could not be read or written.
        case storage(ScrobbleFailure)
    }

    private struct Item {
        var rowID: Int64?
        var action: ScrobbleAction
        var unsaved = false
    }

    private let endpoint: any ScrobbleEndpoint
    private let transport: any ScrobbleTransport
    private let store: any ScrobbleOutboxStore
    private let backoff: Backoff
    private let sleep: @Sendable (Double) async throws -> Void
    private var onNote: @Sendable (Note) -> Void = { _ in }
    private var line: [Item] = []
    private var draining = false
    private var attempt = 0
    private var retry: Task<Void, Never>?
    private var stopped = false
    private var refusedCredentials = false

    /// The service this courier delivers to.
    public nonisolated var service: ScrobbleService { endpoint.service }

    /// A courier for `endpoint` over `transport`, its rows in `store`, waiting by
    /// `backoff` through `sleep` (which must throw when its task is cancelled).
    public init(endpoint: any ScrobbleEndpoint, transport: any ScrobbleTransport, store: any ScrobbleOutboxStore,
                backoff: Backoff = Backoff(initial: 5, cap: 600, jitter: 0.2),
                sleep: @escaping @Sendable (Double) async throws -> Void = { seconds in
                    try await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded())))
                }) {
        self.endpoint = endpoint
        self.transport = transport
        self.store = store
        self.backoff = backoff
        self.sleep = sleep
    }

    /// Takes over what earlier runs left in the outbox, ahead of anything submitted since;
    /// ``deliver()`` sends it.
    public func start(onNote: @escaping @Sendable (Note) -> Void) {
        self.onNote = onNote
        do throws(ScrobbleFailure) {
            let queued = Set(line.compactMap(\.rowID))
            let carried = try store.waitingScrobbles(for: endpoint.service).filter { !queued.contains($0.id) }
            line = carried.map { Item(rowID: $0.id, action: $0.action) } + line
        } catch {
            onNote(.storage(error))
        }
    }

    /// Keeps `action` in the outbox, behind what waits; ``deliver()`` sends it. Returns once
    /// the row is written (or could not be), never waiting for the service.
    public func submit(_ action: ScrobbleAction) {
        var item = Item(action: action)
        do throws(ScrobbleFailure) {
            item.rowID = try store.keepScrobble(action, for: endpoint.service)
        } catch {
            item.unsaved = true
            onNote(.storage(error))
        }
        line.append(item)
    }

    /// Delivers what waits, unless the line is waiting for its retry timer or stopped.
    public func deliver() async {
        await drain()
    }

    /// Tells the service what plays now; a failure is only noted, never kept.
    public func nowPlaying(_ song: PlayedSong) async -> ScrobbleFailure? {
        guard !refusedCredentials, !stopped else { return nil }
        do throws(ScrobbleFailure) {
            try endpoint.check(try await transport.send(endpoint.nowPlaying(song)))
            return nil
        } catch {
            if error.stopsLine { credentialsRefused(error) }
            return error
        }
    }

    /// How many scrobbles wait (in this run's line).
    public var waiting: Int { line.count }

    /// Sends what waits now, without waiting for the retry timer (a test's clock, or the
    /// radio quitting).
    public func retryNow() async {
        retry?.cancel()
        retry = nil
        await drain()
    }

    /// Stops delivering; what is left stays in the outbox for the next run.
    public func stop() {
        stopped = true
        retry?.cancel()
        retry = nil
    }

    private func drain() async {
        guard !draining, retry == nil, !stopped, !refusedCredentials else { return }
        draining = true
        defer { draining = false }
        saveUnsaved()
        while !line.isEmpty, !stopped {
            let kind = line[0].action.kind
            let size = max(1, endpoint.batchSize(of: kind))
            let batch = Array(line.prefix { $0.action.kind == kind }.prefix(size))
            guard let request = endpoint.request(for: batch.map(\.action)) else {
                // The service takes no such action: forgotten, as it could never go.
                finish(batch.count)
                continue
            }
            do throws(ScrobbleFailure) {
                try endpoint.check(try await transport.send(request))
                finish(batch.count)
                attempt = 0
                onNote(.delivered(batch.count))
            } catch let error where error.stopsLine {
                credentialsRefused(error)
                return
            } catch let error where error.keepsScrobble {
                let delay = backoff.wait(attempt: attempt)
                attempt += 1
                onNote(.waiting(error, retryIn: delay))
                let sleep = self.sleep
                retry = Task { [weak self] in
                    do { try await sleep(delay) } catch { return }
                    guard !Task.isCancelled else { return }
                    await self?.retryFired()
                }
                return
            } catch {
                // Refused for good: a batch the service refuses whole is refused whole.
                for item in batch { onNote(.refused(item.action, error)) }
                finish(batch.count)
            }
        }
    }

    /// Removes the first `count` items of the line and their rows.
    private func finish(_ count: Int) {
        let ids = line.prefix(count).compactMap(\.rowID)
        line.removeFirst(count)
        guard !ids.isEmpty else { return }
        do throws(ScrobbleFailure) { try store.forgetScrobbles(ids: ids) } catch { onNote(.storage(error)) }
    }

    private func credentialsRefused(_ failure: ScrobbleFailure) {
        guard !refusedCredentials else { return }
        refusedCredentials = true
        retry?.cancel()
        retry = nil
        onNote(.credentialsRefused(failure))
    }

    /// Writes the items whose outbox write failed, oldest first, stopping at the first that
    /// fails again.
    private func saveUnsaved() {
        for index in line.indices where line[index].unsaved {
            guard let id = try? store.keepScrobble(line[index].action, for: endpoint.service) else { return }
            line[index].rowID = id
            line[index].unsaved = false
        }
    }

    private func retryFired() async {
        retry = nil
        await drain()
    }
}
