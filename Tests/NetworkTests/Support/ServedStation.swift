import Foundation
import TestSupport

/// A real `mhz serve` (the built binary) over a folder of FLAC tones, with one account,
/// behind a ``FaultProxy`` that passes everything through and records each request's path
/// and raw query. The station links songs under the host a request named, so the media
/// requests pass the proxy too.
final class ServedStation: Sendable {
    /// The account `--add-user` made.
    static let user = "ana"
    /// Its password.
    static let password = "tone deaf 7"

    /// The music folder, the station's data and the home `mhz serve` runs with.
    let home: TemporaryDirectory
    /// The `mhz serve` process.
    let server: BuiltMhz
    /// The recording proxy in front of it.
    let proxy: FaultProxy

    /// The station's address as clients use it: the proxy.
    var url: URL { proxy.baseURL }

    /// Makes `songs` one-second FLAC files (`Tone - Song N`), adds the account, starts the
    /// station on a free port and the proxy in front of it; `config`, when given, is the
    /// station's `config.toml` (`--config`).
    init(songs: Int, config: String? = nil) async throws {
        home = try TemporaryDirectory(prefix: "mhz-served")
        let music = home.path("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try await offPool {
            for index in 1...songs {
                try MediaFactory.tone(at: music.appendingPathComponent("song\(index).flac"), seconds: 1,
                                      frequency: 200 + 100 * index, tags: ["title": "Song \(index)", "artist": "Tone"])
            }
        }
        let data = home.path("station").path
        let added = try await BuiltMhz.run(["serve", "--add-user", Self.user, "--password-stdin", "--data-dir", data],
                                         home: home.url, stdin: Self.password + "\n")
        guard added.status == 0 else { throw TestSupportError.toolFailed("mhz serve --add-user: \(added.stderr)") }
        var arguments = ["serve", "--data-dir", data, "--port", "0", "--library", music.path]
        if let config {
            let file = home.path("station.toml")
            try Data(config.utf8).write(to: file)
            arguments += ["--config", file.path]
        }
        server = try BuiltMhz(arguments, home: home.url)
        // Should the station never say where it serves, the half-made station goes and
        // BuiltMhz's deinit kills the server.
        proxy = try FaultProxy(upstream: try await server.servedURL())
    }

    /// Every request that reached the station so far, `path?query` as sent.
    var requests: [String] {
        proxy.records.compactMap { record in record.path.map { $0 + (record.query.isEmpty ? "" : "?" + record.query) } }
    }

    /// Stops the proxy and the station (SIGTERM, then waits for it).
    func stop() async throws -> Int32 {
        proxy.stop()
        server.terminate()
        return try await server.exit()
    }
}
