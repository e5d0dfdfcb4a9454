import Logging
import StationLink

extension LoginFlow {
    /// The flow for a runtime's server.
    init(runtime: RadioRuntime, logger: Logger) {
        self.init(http: runtime.http, transport: runtime.transport(logger: logger), endpoints: runtime.endpoints,
                  sessionKey: runtime.sessionKey, logger: logger)
    }
}
