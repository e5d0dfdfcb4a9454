import Foundation

/// One browser session driven over the W3C WebDriver protocol (HTTP and JSON: `POST
/// /session/{id}/url`, `/element`, `/execute/sync`, `/actions`, `GET /screenshot`, and
/// chromedriver's `goog/cdp/execute`), with the
/// tests' own loopback client (``LoopbackExchange``): the calls are few and blocking, and
/// each runs on a thread of its own (``offPool(_:)``).
public struct WebDriverSession: Sendable {
    /// The WebDriver element reference key (W3C WebDriver §12.1, "web element identifier").
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// chromedriver's port.
    public let port: Int
    /// The session id.
    public let id: String

    /// Creates a session on the driver at `port` with these capabilities (W3C's
    /// `{"capabilities":{"alwaysMatch":…}}`).
    static func create(port: Int, alwaysMatch: [String: Any]) async throws -> WebDriverSession {
        let answer = try await WebDriverSession.call(port: port, "POST", "/session",
                                                     ["capabilities": ["alwaysMatch": alwaysMatch]], wait: 60)
        guard let value = answer as? [String: Any], let id = value["sessionId"] as? String else {
            throw WebDriverError.unexpected("no sessionId in \(String(describing: answer))")
        }
        return WebDriverSession(port: port, id: id)
    }

    /// Loads `url` and returns once the document has loaded.
    public func open(_ url: URL) async throws {
        _ = try await command("POST", "/url", ["url": url.absoluteString])
    }

    /// Runs `script` (a function body; `arguments[0]`… are `arguments`) in the page and
    /// returns what it returned, as JSONSerialization reads it.
    @discardableResult
    public func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    /// The value of a JavaScript expression.
    public func value(_ expression: String) async throws -> Any? {
        try await run("return (\(expression));")
    }

    /// Waits until the JavaScript `expression` is true in the page, polling every 50 ms.
    /// - Throws: ``WebDriverError/timedOut(_:)`` with `what` and the last value of `show`
    ///   (a JavaScript expression that says what the page shows) when it never is.
    public func waitFor(_ what: String, _ expression: String, within limit: Duration = .seconds(20),
                        show: String = "document.querySelector('#status') && document.querySelector('#status').textContent")
        async throws {
        do {
            try await waitUntil(what, within: limit, every: .milliseconds(50)) { try await value(expression) as? Bool == true }
            return
        } catch TestSupportError.timeout {}
        let shown = (try? await value(show)).map { String(describing: $0 ?? "nil") } ?? "?"
        throw WebDriverError.timedOut("\(what) (the page shows: \(shown))")
    }

    /// The element the CSS `selector` finds first.
    public func element(_ selector: String) async throws -> String {
        let answer = try await command("POST", "/element", ["using": "css selector", "value": selector])
        guard let reference = (answer as? [String: Any])?[Self.elementKey] as? String else {
            throw WebDriverError.unexpected("no element for \(selector)")
        }
        return reference
    }

    /// Clicks the element `selector` finds, as a user would (scrolled into view, hit-tested).
    public func click(_ selector: String) async throws {
        let reference = try await element(selector)
        _ = try await command("POST", "/element/\(reference)/click", [:])
    }

    /// Types `text` into the element `selector` finds.
    public func type(_ text: String, into selector: String) async throws {
        let reference = try await element(selector)
        _ = try await command("POST", "/element/\(reference)/value", ["text": text])
    }

    /// Presses and releases each key of `keys` on the keyboard, to whatever has the focus
    /// (W3C actions: `keyDown`, `keyUp`).
    public func press(_ keys: String) async throws {
        var steps: [[String: Any]] = []
        for key in keys {
            steps.append(["type": "keyDown", "value": String(key)])
            steps.append(["type": "keyUp", "value": String(key)])
        }
        _ = try await command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": steps]]])
        _ = try await command("DELETE", "/actions", nil)
    }

    /// Sets a cookie for the page's site (path `/`), as if the site had set it.
    public func addCookie(name: String, value: String) async throws {
        _ = try await command("POST", "/cookie", ["cookie": ["name": name, "value": value, "path": "/"]])
    }

    /// Deletes every cookie of the page's site.
    public func deleteCookies() async throws {
        _ = try await command("DELETE", "/cookie", nil)
    }

    /// Sets the window's outer size.
    public func resize(width: Int, height: Int) async throws {
        _ = try await command("POST", "/window/rect", ["width": width, "height": height])
    }

    /// A PNG of the page as shown.
    public func screenshot() async throws -> Data {
        guard let text = try await command("GET", "/screenshot", nil) as? String, let png = Data(base64Encoded: text) else {
            throw WebDriverError.unexpected("the screenshot was no base64 PNG")
        }
        return png
    }

    /// Runs `script` in every document loaded from now on, before the document's own
    /// scripts (Chrome DevTools' `Page.addScriptToEvaluateOnNewDocument`, through
    /// chromedriver's `goog/cdp/execute`: W3C WebDriver has no such command). Returns the
    /// identifier ``forgetScript(_:)`` takes.
    public func runBeforeEachDocument(_ script: String) async throws -> String {
        let answer = try await command("POST", "/goog/cdp/execute",
                                       ["cmd": "Page.addScriptToEvaluateOnNewDocument", "params": ["source": script]])
        guard let identifier = (answer as? [String: Any])?["identifier"] as? String else {
            throw WebDriverError.unexpected("no identifier for the script: \(String(describing: answer))")
        }
        return identifier
    }

    /// Stops running the script ``runBeforeEachDocument(_:)`` registered as `identifier`.
    public func forgetScript(_ identifier: String) async throws {
        _ = try await command("POST", "/goog/cdp/execute",
                              ["cmd": "Page.removeScriptToEvaluateOnNewDocument", "params": ["identifier": identifier]])
    }

    /// Ends the session: chromedriver quits the browser.
    public func delete() async throws {
        _ = try await WebDriverSession.call(port: port, "DELETE", "/session/\(id)", nil, wait: 30)
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        try await WebDriverSession.call(port: port, method, "/session/\(id)\(path)", body, wait: 30)
    }

    /// One request; the answer's `value`, or the W3C error it carries thrown.
    static func call(port: Int, _ method: String, _ path: String, _ body: [String: Any]?, wait: Double) async throws -> Any? {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if body != nil { request += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(payload.count)\r\n" }
        request += "\r\n" + String(decoding: payload, as: UTF8.self)
        let sent = request
        // chromedriver keeps the connection open whatever `Connection` says: the answer is
        // complete at its Content-Length.
        let answer = try await offPool {
            try LoopbackExchange.run(port: port, request: sent, silence: wait) { exchange in
                guard exchange.bytes.range(of: Data("\r\n\r\n".utf8)) != nil,
                      let length = exchange.values("content-length").first.flatMap({ Int($0) }) else { return false }
                return exchange.body.count >= length
            }
        }
        let object = try? JSONSerialization.jsonObject(with: answer.body, options: [.fragmentsAllowed]) as? [String: Any]
        guard let object else {
            throw WebDriverError.unexpected("\(method) \(path): \(answer.status.map(String.init) ?? "no status"), "
                + String(decoding: answer.body.prefix(300), as: UTF8.self))
        }
        let value = object["value"]
        if let failure = value as? [String: Any], let error = failure["error"] as? String {
            throw WebDriverError.failed("\(method) \(path): \(error): \(failure["message"] as? String ?? "")")
        }
        return value is NSNull ? nil : value
    }
}

/// What went wrong with the browser.
public enum WebDriverError: Error, CustomStringConvertible {
    /// chromedriver or chromium did not start (what it said).
    case notStarted(String)
    /// A command answered a W3C error (the command, the error code, its message).
    case failed(String)
    /// An answer in a shape the protocol does not give.
    case unexpected(String)
    /// A condition waited for never held.
    case timedOut(String)

    /// The failure in one line.
    public var description: String {
        switch self {
        case .notStarted(let text): "chromedriver did not start: \(text)"
        case .failed(let text): "WebDriver: \(text)"
        case .unexpected(let text): "WebDriver answered unexpectedly: \(text)"
        case .timedOut(let text): "timed out waiting for \(text)"
        }
    }
}
