import Foundation

/// Debian's chromedriver on a free port driving Debian's Chromium headless, with a user
/// data folder of its own: the tests' real browser.
///
/// Chromium runs `--headless=new --autoplay-policy=no-user-gesture-required --no-sandbox`:
/// an `<audio>` plays (its `currentTime` advances) without a sound card or a click.
/// ``close()`` ends the session (chromedriver quits Chromium), ends chromedriver, ends any
/// Chromium process still holding the data folder, and removes the folder.
public final class HeadlessChromium: Sendable {
    /// The browser session.
    public let session: WebDriverSession
    private let driver: Process
    private let profile: TemporaryDirectory

    /// Debian's chromedriver and Chromium (`script/setup --test` installs them).
    static let driverPath = "/usr/bin/chromedriver"
    static let browserPath = "/usr/bin/chromium"

    /// Starts chromedriver, waits until it listens, and opens a session with a window of
    /// `width`×`height`.
    public init(width: Int = 1280, height: Int = 800) async throws {
        profile = try TemporaryDirectory(prefix: "mhz-chromium")
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: Self.driverPath)
        // Port 0: chromedriver binds a free port and prints it.
        driver.arguments = ["--port=0"]
        let output = ChildLaunch.pipe()
        driver.standardOutput = output
        driver.standardError = FileHandle.nullDevice
        driver.standardInput = FileHandle.nullDevice
        // Chromium keeps its crash database and caches under HOME, and libpulse makes a
        // `pulse-*` folder in TMPDIR without XDG_RUNTIME_DIR: all in the data folder, so
        // nothing is left behind.
        var environment = ProcessInfo.processInfo.environment
        for name in ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "TMPDIR"] {
            environment[name] = profile.url.path
        }
        driver.environment = environment
        let printed = Locked(Data())
        do {
            try ChildLaunch.run(driver)
        } catch {
            throw WebDriverError.notStarted("\(Self.driverPath): \(error)")
        }
        PipeReader.drain(output.fileHandleForReading, name: "chromedriver") { chunk in
            printed.withLock { $0.append(chunk) }
        }
        let port = try? await waitForValue("chromedriver's port", within: .seconds(30)) { [driver] () throws -> Int? in
            let text = String(decoding: printed.value, as: UTF8.self)
            if let range = text.range(of: "started successfully on port ") {
                return Int(text[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
            }
            guard driver.isRunning else { throw WebDriverError.notStarted(text) }
            return nil
        }
        guard let port else {
            driver.killAndReap()
            throw WebDriverError.notStarted(String(decoding: printed.value, as: UTF8.self))
        }
        let arguments = ["--headless=new", "--autoplay-policy=no-user-gesture-required", "--no-sandbox",
                         "--user-data-dir=\(profile.url.path)", "--window-size=\(width),\(height)",
                         "--no-first-run", "--disable-gpu", "--disable-crash-reporter", "--lang=en-US"]
        do {
            session = try await WebDriverSession.create(port: port, alwaysMatch: [
                "browserName": "chrome",
                "goog:chromeOptions": ["binary": Self.browserPath, "args": arguments],
            ])
        } catch {
            driver.killAndReap()
            Self.endBrowsers(using: profile.url.path)
            throw error
        }
    }

    /// Ends the browser and chromedriver and removes the data folder; also after a failed
    /// session command.
    public func close() async {
        try? await session.delete()
        driver.killAndReap()
        Self.endBrowsers(using: profile.url.path)
        profile.remove()
    }

    /// Kills every process whose command line names the data folder (Chromium and its
    /// helpers, should a session's end not have quit them), and waits until they are gone.
    static func endBrowsers(using folder: String) {
        let mark = "--user-data-dir=\(folder)"
        func holders() -> [pid_t] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry -> pid_t? in
                guard let pid = pid_t(entry), pid != getpid(),
                      let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                      String(decoding: line, as: UTF8.self).split(separator: "\0").contains(where: { $0 == mark })
                else { return nil }
                return pid
            }
        }
        _ = blockingEventually(within: .seconds(10), every: .milliseconds(20)) {
            let left = holders()
            for pid in left { kill(pid, SIGKILL) }
            return left.isEmpty
        }
    }
}
