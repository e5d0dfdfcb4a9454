import Foundation

/// The mhz under test: the built binary, run with a home and XDG folders of its own (so no
/// configuration, session or `~/Music` of the user's changes what is measured) and one data
/// directory whose embedded station synthesizes the demo library on the first run.
struct MhzInstall: Sendable {
    /// The `mhz` executable.
    let binary: String
    /// Everything this install writes: `home/` and `data/`.
    let root: URL

    /// `--data-dir`.
    var dataDirectory: URL { root.appendingPathComponent("data", isDirectory: true) }
    /// `HOME`: empty, so the embedded station has no `~/Music` and serves the demo library.
    var home: URL { root.appendingPathComponent("home", isDirectory: true) }
    /// The demo library the embedded station synthesized (the media the references play).
    var demoLibrary: URL { dataDirectory.appendingPathComponent("station/demo-library", isDirectory: true) }
    /// mhz's log, where the terminal UI's runs narrate their events.
    var logFile: URL { dataDirectory.appendingPathComponent("mhz.log") }

    /// Creates the folders.
    init(binary: String, root: URL) throws {
        self.binary = binary
        self.root = root
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
    }

    /// The environment mhz runs with: PATH and the terminal's variables from ours, the
    /// rest pointing into `root`.
    var environment: [String: String] {
        let ours = ProcessInfo.processInfo.environment
        var environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config",
                           "XDG_DATA_HOME": home.path + "/.local/share", "XDG_STATE_HOME": home.path + "/.local/state",
                           "XDG_CACHE_HOME": home.path + "/.cache", "LANG": "C.UTF-8"]
        environment["PATH"] = ours["PATH"] ?? "/usr/bin:/bin"
        if let term = ours["TERM"] { environment["TERM"] = term }
        return environment
    }

    /// Options of every run: the null audio output and the data directory.
    func arguments(headless: Bool) -> [String] {
        (headless ? ["--headless"] : []) + ["--audio-output", "null", "--data-dir", dataDirectory.path]
    }

    /// Removes mhz's own database (progress, history, outbox), keeping the station's data
    /// and demo library: the next start begins a song from 0 instead of resuming the last
    /// one at its position, as the `mpv URL` it is compared with does.
    func forgetProgress() {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: dataDirectory.appendingPathComponent("mhz.sqlite" + suffix))
        }
    }
}
