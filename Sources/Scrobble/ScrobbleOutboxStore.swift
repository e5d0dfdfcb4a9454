/// A scrobble kept in the outbox: its row and what it asks of which service.
public struct PendingScrobble: Sendable, Equatable {
    /// The row id (its place in line).
    public var id: Int64
    /// The service it is for.
    public var service: ScrobbleService
    /// What it asks.
    public var action: ScrobbleAction

    /// Creates a pending scrobble.
    public init(id: Int64, service: ScrobbleService, action: ScrobbleAction) {
        self.id = id
        self.service = service
        self.action = action
    }
}

/// Where scrobbles wait until their service has taken them: the composition root's
/// database. Rows are kept per service, in the order they were made.
public protocol ScrobbleOutboxStore: Sendable {
    /// Stores `action` for `service`; its row id.
    func keepScrobble(_ action: ScrobbleAction, for service: ScrobbleService) throws(ScrobbleFailure) -> Int64
    /// The scrobbles waiting for `service`, oldest first.
    func waitingScrobbles(for service: ScrobbleService) throws(ScrobbleFailure) -> [PendingScrobble]
    /// Forgets rows that were taken (or refused for good).
    func forgetScrobbles(ids: [Int64]) throws(ScrobbleFailure)
}
