import Hummingbird
import Logging
import ServiceLifecycle

/// Starts a Hummingbird application for a test server and waits until it listens.
///
/// The application is built with the callback it must call from `onServerRunning`; a
/// `run()` that ends before that (a bind error, a cancelled task) becomes
/// ``TestSupportError/serverFailed(_:)`` naming what ended it, instead of a bare "did not
/// start", so a failure on a loaded CI machine says why.
///
/// It runs in a `ServiceGroup` and is stopped with a graceful shutdown, not by cancelling
/// its task: a cancelled server can leave a connection it was accepting at that moment
/// unserved, and SwiftNIO traps on it ("Deinited NIOAsyncWriter without calling finish()",
/// apple/swift-nio#3481, whose maintainers advise a graceful shutdown for test servers).
enum TestServerLaunch {
    /// A running test server.
    struct Running: Sendable {
        /// The port it bound.
        let port: Int
        /// The task that runs it.
        let task: Task<Void, any Error>
        let group: ServiceGroup

        /// Asks the server to stop: it stops accepting, lets the connections it has finish
        /// (closing idle ones) and ends its task. Returns at once.
        func stop() {
            let group = self.group
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Builds the application with `build`, runs it in a task of its own, and returns it once
    /// it listens.
    static func start<App: ApplicationProtocol>(
        _ build: (_ onPort: @escaping @Sendable (Int) -> Void) -> App
    ) async throws -> Running {
        let (stream, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let app = build { port in
            continuation.yield(.success(port))
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(
            services: [app], logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })))
        let task = Task {
            do {
                try await group.run()
                continuation.yield(.failure(TestSupportError.serverFailed("run() returned before listening")))
            } catch {
                continuation.yield(.failure(error))
                throw error
            }
            continuation.finish()
        }
        for await result in stream {
            switch result {
            case .success(let port) where port > 0: return Running(port: port, task: task, group: group)
            case .success: throw TestSupportError.serverFailed("listening, but on no port")
            case .failure(let error): throw TestSupportError.serverFailed(String(describing: error))
            }
        }
        throw TestSupportError.serverFailed("the application ended without a word")
    }
}
