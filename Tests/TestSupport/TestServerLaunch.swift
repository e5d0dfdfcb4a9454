import Hummingbird

/// Starts a Hummingbird application for a test server and waits until it listens.
///
/// The application is built with the callback it must call from `onServerRunning`; a
/// `run()` that ends before that (a bind error, a cancelled task) becomes
/// ``TestSupportError/serverFailed(_:)`` naming what ended it, instead of a bare "did not
/// start", so a failure on a loaded CI machine says why.
enum TestServerLaunch {
    /// Builds the application with `build`, runs it in a task of its own, and returns the
    /// port it bound with that task (cancel it to stop the server).
    static func start<App: ApplicationProtocol>(
        _ build: (_ onPort: @escaping @Sendable (Int) -> Void) -> App
    ) async throws -> (port: Int, task: Task<Void, any Error>) {
        let (stream, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let app = build { port in
            continuation.yield(.success(port))
            continuation.finish()
        }
        let task = Task {
            do {
                try await app.run()
                continuation.yield(.failure(TestSupportError.serverFailed("run() returned before listening")))
            } catch {
                continuation.yield(.failure(error))
                throw error
            }
            continuation.finish()
        }
        for await result in stream {
            switch result {
            case .success(let port) where port > 0: return (port, task)
            case .success: throw TestSupportError.serverFailed("listening, but on no port")
            case .failure(let error): throw TestSupportError.serverFailed(String(describing: error))
            }
        }
        throw TestSupportError.serverFailed("the application ended without a word")
    }
}
