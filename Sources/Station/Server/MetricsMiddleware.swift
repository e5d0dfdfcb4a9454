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
        // What Hummingbird answers an error that is not an HTTPResponseError with.
        var status = 500
        defer { metrics.request(path: request.uri.path, status: status, duration: start.duration(to: .now)) }
        do {
            let response = try await next(request, context)
            status = Int(response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            status = Int(error.status.code)
            throw error
        }
    }
}
