import Hummingbird

/// Counts every request the router answers, by route family and status, and times it to
/// its answer's head (``StationMetrics/request(path:status:duration:)``). Outermost, before
/// the request observer: what fails later is counted with the status it was answered with
/// (an error that escapes every middleware as Hummingbird answers it, a 500 otherwise).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the counts go.
    let metrics: StationMetrics

    /// Passes the request on and counts what came of it.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.request(path: request.uri.path, status: Int(response.status.code), duration: start.duration(to: .now))
            return response
        } catch let error as any HTTPResponseError {
            metrics.request(path: request.uri.path, status: Int(error.status.code), duration: start.duration(to: .now))
            throw error
        } catch {
            metrics.request(path: request.uri.path, status: 500, duration: start.duration(to: .now))
            throw error
        }
    }
}
