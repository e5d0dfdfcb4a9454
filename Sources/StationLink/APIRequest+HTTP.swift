import Foundation
import HTTP
import RadioAPI

/// RadioAPI's requests go to libcurl as RadioAPI built them: neither layer imports the
/// other, so the conformance is made here, where both are seen, and nothing is copied.
extension APIRequest: PerformableRequest {
    /// ``APIRequest/method`` as sent.
    public var methodName: String { method.rawValue }

    /// ``APIRequest/headers`` as name/value pairs.
    public var headerFields: [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }

    /// Whether the HTTP layer may send it again at once after a transient failure: never a
    /// login (a retried login can count as two failures or lock an account), never
    /// feedback (the station records every arrival; the report outbox tries it again
    /// later, as one report).
    public var idempotent: Bool { !isLogin && !isFeedback }
}
