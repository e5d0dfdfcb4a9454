import Foundation
@testable import Station
import Synchronization
import TestSupport
@testable import DemoLibrary

/// Shared set-up for the station tests.
enum StationFixtures {
    /// One demo library for every test that only needs *a* library: synthesizing it once
    /// per test process keeps the suite fast. Tests about synthesis itself use their own
    /// data directories. The folder is removed when the test process exits.
    static var sharedDataDirectory: URL { TemporaryDirectory.processShared }

    /// The mixed-format library of ``taggedFiles``, generated with ffmpeg once per test
    /// process (removed at exit with the shared data directory).
    static var sharedTaggedLibrary: URL {
        get async throws { try await taggedLibraryTask.value }
    }

    /// Generated once, off the cooperative pool (ffmpeg takes seconds under load).
    private static let taggedLibraryTask = Task {
        try await offPool {
            let root = sharedDataDirectory.appendingPathComponent("tagged-library", isDirectory: true)
            try makeTaggedLibrary(in: root)
            return root
        }
    }

    /// The demo library, synthesized once per test process into the shared data directory.
    static var sharedDemoLibrary: URL {
        get async throws { try await demoTask.value }
    }

    private static let demoTask = Task {
        try await offPool { () throws -> URL in
            let demo = DemoLibrary(directory: sharedDataDirectory.appendingPathComponent("demo-library"))
            try demo.ensure()
            return demo.directory
        }
    }

    /// A fresh data directory whose `demo-library` is a link to the shared demo library:
    /// each station gets its own database (accounts, feedback, pins) without synthesizing
    /// the demo again.
    static func freshDataDirectory() async throws -> TemporaryDirectory {
        let demo = try await sharedDemoLibrary
        let data = try TemporaryDirectory(prefix: "mhz-station-data")
        try FileManager.default.createSymbolicLink(at: data.path("demo-library"), withDestinationURL: demo)
        return data
    }

    /// Runs `body` against a started station over the shared demo library (or `library`),
    /// with a data directory of its own, and stops the station afterwards (also when `body`
    /// throws). `adjust` changes the configuration further (shorter timeouts).
    static func withDemoStation(seed: UInt64? = 7, library: URL? = nil,
                                tokenLifetime: Duration = .seconds(3600),
                                tokenGuard: TokenGuard.Limits = .init(),
                                loginGuard: TokenGuard.Limits = LoginGuard.limits,
                                onRequest: (@Sendable (StationRequest) -> Void)? = nil,
                                adjust: (inout StationConfiguration) -> Void = { _ in },
                                _ body: (Station, URL) async throws -> Void) async throws {
        try await withStation(data: try await freshDataDirectory(), seed: seed, library: library,
                              tokenLifetime: tokenLifetime, tokenGuard: tokenGuard, loginGuard: loginGuard,
                              onRequest: onRequest, adjust: adjust, body)
    }

    /// Runs `body` against a started station over the generated library, whose data
    /// directory starts as a copy of the already scanned template.
    static func withGeneratedStation(seed: UInt64? = 7, _ body: (Station, URL) async throws -> Void) async throws {
        try await withStation(data: try await GeneratedLibrary.scannedDataDirectory(), seed: seed,
                              library: try await GeneratedLibrary.root, tokenLifetime: .seconds(3600),
                              tokenGuard: .init(), loginGuard: LoginGuard.limits, onRequest: nil, adjust: { _ in }, body)
    }

    private static func withStation(data: TemporaryDirectory, seed: UInt64?, library: URL?, tokenLifetime: Duration,
                                    tokenGuard: TokenGuard.Limits, loginGuard: TokenGuard.Limits,
                                    onRequest: (@Sendable (StationRequest) -> Void)?,
                                    adjust: (inout StationConfiguration) -> Void,
                                    _ body: (Station, URL) async throws -> Void) async throws {
        var configuration = StationConfiguration(
            library: library, dataDirectory: data.url, seed: seed, onRequest: onRequest,
            tokenLifetime: tokenLifetime, rescanInterval: nil)
        configuration.tokenGuard = tokenGuard
        configuration.loginGuard = loginGuard
        // Measuring the sound of the library is for the tests about it (they turn it on):
        // the rest would each measure the demo library again, for nothing.
        configuration.analysesSound = false
        adjust(&configuration)
        let station = try await Station(configuration: configuration)
        let url = try await station.start()
        try await withCleanup {
            try await body(station, url)
        } cleanup: {
            await station.stop()
        }
        withExtendedLifetime(data) {}
    }

    /// Creates an account (bcrypt cost 4: fast, as tests need) and logs it in.
    ///
    /// - Returns: the query-string credentials, `&user_id=…&expire=…&token=…`.
    static func signIn(_ name: String, password: String = "secret", station: Station, base: URL) async throws -> String {
        try await Station.addUser(name: name, password: password, cost: 4,
                                  dataDirectory: station.configuration.dataDirectory)
        let answer = try await HTTPFetch.post(base, "/j/app/login",
                                              form: "app_name=radio_android&version=100&username=\(name)&password=\(password)")
        let json = try answer.jsonObject()
        guard let id = json["user_id"] as? String, let token = json["token"] as? String,
              let expire = json["expire"] as? String
        else { throw FetchError.notAnObject(answer.text) }
        return "&user_id=\(id)&expire=\(expire)&token=\(token)"
    }

    /// Writes the mixed-format test library: one file per format with tags, one untagged
    /// file named in the `Artist/Album/NN Title` layout, and a hidden file, a file in a
    /// hidden folder and a text file that must all be ignored.
    static func makeTaggedLibrary(in root: URL) throws {
        for file in taggedFiles {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try MediaFactory.tone(at: url, seconds: file.seconds, frequency: file.frequency, tags: file.tags)
        }
        try MediaFactory.tone(at: root.appendingPathComponent(".hidden.mp3"), seconds: 1)
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".trash"), withIntermediateDirectories: true)
        try MediaFactory.tone(at: root.appendingPathComponent(".trash/ghost.mp3"), seconds: 1)
        try Data("not music".utf8).write(to: root.appendingPathComponent("Rock Band/notes.txt"))
    }

    /// One generated file of the tagged library and what a scan must read from it.
    struct TaggedFile: Sendable {
        var path: String
        var seconds: Double
        var frequency: Int
        var tags: [String: String]
        var title: String
        var artist: String
        var album: String
        var genre: String
        var year: Int
    }

    static let taggedFiles: [TaggedFile] = [
        TaggedFile(path: "Rock Band/First Album/01 Thunder.mp3", seconds: 3, frequency: 440,
                   tags: ["title": "Thunder Road", "artist": "The Testers", "album": "Loud Songs", "genre": "Rock",
                          "date": "2001"],
                   title: "Thunder Road", artist: "The Testers", album: "Loud Songs", genre: "Rock", year: 2001),
        TaggedFile(path: "Jazz/cool.ogg", seconds: 4, frequency: 330,
                   tags: ["title": "Cool Blue", "artist": "Ana Sax", "album": "Night Club", "genre": "Jazz",
                          "date": "1999"],
                   title: "Cool Blue", artist: "Ana Sax", album: "Night Club", genre: "Jazz", year: 1999),
        TaggedFile(path: "misc/lossless.flac", seconds: 5, frequency: 550,
                   tags: ["title": "Lossless Love", "artist": "Bitwise Quartet", "album": "Archive", "genre": "Rock"],
                   title: "Lossless Love", artist: "Bitwise Quartet", album: "Archive", genre: "Rock", year: 0),
        TaggedFile(path: "misc/orchard.m4a", seconds: 3, frequency: 660,
                   tags: ["title": "Apple Orchard", "artist": "Cider House", "album": "Harvest", "genre": "Jazz",
                          "date": "2010"],
                   title: "Apple Orchard", artist: "Cider House", album: "Harvest", genre: "Jazz", year: 2010),
        TaggedFile(path: "wave.wav", seconds: 2, frequency: 220,
                   tags: ["title": "Raw Wave", "artist": "PCM Trio", "album": "Uncompressed", "genre": "Ambient",
                          "date": "2005"],
                   title: "Raw Wave", artist: "PCM Trio", album: "Uncompressed", genre: "Ambient", year: 2005),
        TaggedFile(path: "voice/opus one.opus", seconds: 6, frequency: 480,
                   tags: ["title": "Opus One", "artist": "Codec Choir", "album": "Low Bitrate", "genre": "Choral"],
                   title: "Opus One", artist: "Codec Choir", album: "Low Bitrate", genre: "Choral", year: 0),
        TaggedFile(path: "Untagged Artist/Untagged Album/07 Quiet Song.mp3", seconds: 4, frequency: 500, tags: [:],
                   title: "Quiet Song", artist: "Untagged Artist", album: "Untagged Album", genre: "", year: 0),
    ]
}

/// Collects what the station's request hook reports.
final class RequestLog: Sendable {
    private let requests = Mutex<[StationRequest]>([])

    /// The hook to put in the configuration.
    var hook: @Sendable (StationRequest) -> Void {
        { [self] request in requests.withLock { $0.append(request) } }
    }

    /// Everything reported so far, in order.
    var all: [StationRequest] { requests.withLock { $0 } }
}
