import Foundation
import ServiceLifecycle
import Synchronization

/// The running server of a ``Station``: the service group running the server, the task
/// running the group, the socket it listens on and the address it is bound to. A class of its own so the
/// serving task can clear it when the server ends without keeping the station alive.
///
/// Each start gets a generation number; updates from a server that has since been
/// stopped and replaced carry an old number and are ignored, so a late-ending old task
/// cannot wipe out its successor.
final class ServerHandle: Sendable {
    private struct State {
        var generation = 0
        var task: Task<Void, Never>?
        var group: ServiceGroup?
        var socket: ListeningSocket?
        var baseURL: URL?
        var isActive = false
    }

    private let state = Mutex(State())

    /// Creates an idle handle.
    init() {}

    /// The bound root, `http://127.0.0.1:<port>`, while serving.
    var baseURL: URL? {
        state.withLock { $0.baseURL }
    }

    /// Claims the handle for a new server.
    ///
    /// - Returns: the new server's generation, or `nil` when one is running or starting.
    func beginStarting() -> Int? {
        state.withLock { state in
            guard !state.isActive else { return nil }
            state.generation += 1
            state.isActive = true
            state.baseURL = nil
            return state.generation
        }
    }

    /// Records the socket the server of `generation` is to serve; the handle owns it until
    /// ``finished(generation:)`` or ``detach()`` hands it back.
    func attach(_ socket: ListeningSocket, generation: Int) {
        state.withLock { state in
            guard state.generation == generation, state.isActive else { return }
            state.socket = socket
        }
    }

    /// Records the serving task and its service group (before the server has bound).
    func attach(_ task: Task<Void, Never>, group: ServiceGroup, generation: Int) {
        state.withLock { state in
            guard state.generation == generation, state.isActive else { return }
            state.task = task
            state.group = group
        }
    }

    /// Records the bound address once the server listens.
    func didBind(_ url: URL, generation: Int) {
        state.withLock { state in
            guard state.generation == generation, state.isActive else { return }
            state.baseURL = url
        }
    }

    /// Forgets the server of `generation` (it failed to bind or has ended); returns its
    /// socket for the caller to release, unless ``detach()`` took it first.
    @discardableResult
    func finished(generation: Int) -> ListeningSocket? {
        state.withLock { state in
            guard state.generation == generation else { return nil }
            defer { state.socket = nil }
            state.task = nil
            state.group = nil
            state.baseURL = nil
            state.isActive = false
            return state.socket
        }
    }

    /// What ``detach()`` takes out: the serving task and its group, if the server got that
    /// far, and the socket it serves, if any.
    struct Detached {
        /// The task running the group.
        var task: Task<Void, Never>?
        /// The service group running the server.
        var group: ServiceGroup?
        /// The socket, now the caller's to release or to hand on.
        var socket: ListeningSocket?
    }

    /// Takes the current server out, leaving the handle idle.
    func detach() -> Detached {
        state.withLock { state in
            defer {
                state.task = nil
                state.group = nil
                state.socket = nil
                state.baseURL = nil
                state.isActive = false
            }
            return Detached(task: state.task, group: state.group, socket: state.socket)
        }
    }

    /// The current serving task, if any, without detaching it.
    var task: Task<Void, Never>? {
        state.withLock { $0.task }
    }

    deinit {
        // A station dropped while serving stops serving, gracefully (see Station.stop()).
        if let group = state.withLock({ $0.group }) {
            Task { await group.triggerGracefulShutdown() }
        }
    }
}
