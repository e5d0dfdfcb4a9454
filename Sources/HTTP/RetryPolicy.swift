import Backoff
import Foundation

/// When and how often a failed request is tried again (pianobar's `temporaryCurlError`,
/// ncspot's `api_with_retry`): which statuses say "not now" is `Backoff`'s one rule
/// (``StatusVerdict``), which transport failures pass is libcurl's (``CurlCode/isTransient``).
///
/// Only idempotent requests are retried (a login never is: a retried login can count as
/// two failures or lock an account, and pianobar guards its retry loop the same way).
/// Waits follow `backoff` (mhz's one retry schedule), and a server's `Retry-After` is
/// honoured up to the backoff's cap;
/// a server asking for a longer wait gets its answer back at once, so the caller (the
/// radio's own retry schedule) decides, instead of a request hanging for minutes.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt (0 disables retrying).
    public var maxRetries: Int
    /// The waits between attempts; its cap is also the longest `Retry-After` waited for.
    public var backoff: Backoff

    /// Creates a policy.
    public init(maxRetries: Int = 2, backoff: Backoff = Backoff(initial: 0.5, cap: 8, jitter: 0.2)) {
        self.maxRetries = max(0, maxRetries)
        self.backoff = backoff
    }

    /// Never retry.
    public static let never = RetryPolicy(maxRetries: 0)

    /// Whether an outcome is worth another attempt at once: a status the one rule of
    /// "not now" (``StatusVerdict/isNotNow``) names, or a transport failure libcurl
    /// classifies as transient (``CurlCode/isTransient``). A server error is not tried
    /// again here: an internal error usually repeats.
    public static func isTransient(_ outcome: Result<HTTPResponse, HTTPError>) -> Bool {
        switch outcome {
        case .success(let response): StatusVerdict(status: response.status).isNotNow
        case .failure(let error): error.isTransient
        }
    }

    /// The seconds to wait before trying `request` again after `outcome`, or `nil` when it
    /// must not be retried.
    ///
    /// - Parameter retriesSoFar: how many retries already happened (0 after the first
    ///   attempt).
    public func delay(after outcome: Result<HTTPResponse, HTTPError>, of request: some PerformableRequest,
                      retriesSoFar: Int) -> Double? {
        guard request.idempotent, retriesSoFar < maxRetries, Self.isTransient(outcome) else { return nil }
        let wait = backoff.wait(attempt: retriesSoFar)
        guard case .success(let response) = outcome, let asked = Self.retryAfter(response) else { return wait }
        return asked <= backoff.cap ? max(wait, asked) : nil
    }

    /// `Retry-After` in its delta-seconds form (RFC 9110 §10.2.3); the HTTP-date form is
    /// ignored, as radio servers were not seen to send it.
    static func retryAfter(_ response: HTTPResponse) -> Double? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces),
              let seconds = Int(value), seconds >= 0
        else { return nil }
        return Double(seconds)
    }
}
