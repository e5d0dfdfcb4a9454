// swift-tools-version: 6.1
// The layers and the only imports allowed between them are drawn in docs/ARCHITECTURE.md
// (script/check-architecture holds every target to that table): network (HTTP, RadioAPI)
// and playback (Playback) never import each other, and only the `mhz` executable (the
// composition root) sees everything. Sources/ holds the product alone; benchmarks live in
// Benchmarks/, test helpers in Tests/, libFuzzer harnesses in Fuzz/ (script/fuzz, not built here),
// the build's own tools in Tools/ and Plugins/.
import Foundation
import PackageDescription

/// The release link's inputs (Link/), by absolute path: the linker does not run in the
/// package's folder.
let linkFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Link").path

let package = Package(
    name: "mhz",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mhz", targets: ["mhz"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The station's /metrics: swift-metrics' API over a Prometheus registry.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // MARK: C libraries, each behind a shim header with static-inline wrappers for
        // what Swift cannot import (variadics, macros, C globals).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libmpv's client API, loaded with dlopen when the first player is created: a command
        // that plays nothing does not map libmpv's ~230 libraries (Sources/CMpv/mpv_loader.c).
        .target(name: "CMpv", linkerSettings: [.linkedLibrary("dl")]),
        // No pkgConfig: ncursesw's --cflags are -D flags SwiftPM refuses ("prohibited
        // flag(s)") and drops; the shim asks for the wide API itself and the module map
        // names both libraries pkg-config would link (libncurses-dev, script/setup).
        .systemLibrary(name: "CNcurses"),
        .systemLibrary(name: "CTagLib", pkgConfig: "taglib_c", providers: [.apt(["libtagc0-dev"])]),
        // glibc's mallopt(3), for the executable's allocator settings.
        .systemLibrary(name: "CMalloc"),
        // Cover art: TagLib 1.13's C binding has no picture API, so a few lines of its C++
        // API behind one `extern "C"` function (headers from libtag1-dev, a dependency of
        // libtagc0-dev).
        .target(name: "CTagLibPictures", linkerSettings: [.linkedLibrary("tag")]),
        // OpenSSL's libcrypto (SHA-256 of downloaded songs), the library libcurl links for TLS.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // FFmpeg's libavformat, libavcodec (with the libmp3lame encoder), libswresample and
        // libavutil: the station's transcoding of songs to MP3. Loaded with dlopen when the
        // first song is transcoded, like libmpv (Sources/CFFmpeg/ffmpeg_loader.c); the
        // headers come from libavformat-dev, libavcodec-dev and libswresample-dev.
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        // libsystemd's sd-bus, for the desktop's D-Bus (MPRIS, notifications): loaded with
        // dlopen on the first connection, like libmpv, since libsystemd maps six more
        // libraries (Sources/CSDBus/sd_bus_loader.c); the headers come from libsystemd-dev.
        // The MPRIS vtables are sd-bus C macros, so they are defined there too.
        .target(name: "CSDBus", linkerSettings: [.linkedLibrary("dl")]),
        // aubio (spectra, descriptors, MFCCs, onsets, beats; its FFT is FFTW's), for the
        // station's sound analysis: loaded with dlopen when the first song is analysed, like
        // FFmpeg, since libaubio links FFmpeg, libsndfile and libsamplerate
        // (Sources/CAubio/aubio_loader.c); the headers come from libaubio-dev.
        .target(name: "CAubio", linkerSettings: [.linkedLibrary("dl")]),
        // libebur128 (EBU R 128 / BS.1770 integrated loudness and true peak), for the
        // station's sound analysis: loaded with dlopen when the first song is analysed, like
        // aubio, so a machine without it still analyses sound, without loudness
        // (Sources/CEbur128/ebur128_loader.c); the header comes from libebur128-dev.
        .target(name: "CEbur128", linkerSettings: [.linkedLibrary("dl")]),

        // MARK: Layers
        // One retry schedule (delays, cap, jitter) for everything that retries.
        .target(name: "Backoff"),
        // The one loop around write(2) (short writes, EINTR) for every target that writes files.
        .target(name: "POSIXFile"),
        // mhz's version number, written once: --version, the station's Server header, the
        // User-Agent, the scrobbling client's version.
        .target(name: "MhzVersion"),
        .target(name: "HTTP", dependencies: ["CCurl", "Backoff", "POSIXFile", "MhzVersion"]),
        .target(name: "RadioAPI"),
        .target(name: "Playback", dependencies: ["CMpv", "Backoff"]),
        .target(name: "Store", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // HLS playlists (RFC 8216), parsed from text: pure, it imports nothing of the project.
        .target(name: "HLSPlaylist"),
        .target(name: "Radio", dependencies: ["RadioAPI", "Backoff"]),
        // Scrobbling: ListenBrainz's and Last.fm's requests as values (Last.fm's MD5
        // signature through libcrypto), when a song counts as listened to, and the courier
        // that delivers the scrobble outbox through ports the composition root fills.
        .target(name: "Scrobble", dependencies: ["Backoff", "COpenSSL"]),
        // The station, one target per job (see docs/ARCHITECTURE.md): its database file, a
        // seeded generator, the music library, the recommender, the demo library's
        // synthesis, and the HTTP server with accounts and captchas that serves them.
        .target(name: "StationStorage", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "SeededRandom"),
        .target(
            name: "MusicLibrary",
            dependencies: ["StationStorage", "CTagLib", "CTagLibPictures", "RadioAPI",
                           .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "Recommender",
            dependencies: ["MusicLibrary", "StationStorage", "SeededRandom", "RadioAPI",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")]),
        .target(name: "DemoLibrary", dependencies: ["MusicLibrary", "StationStorage", "SeededRandom", "Transcoder"]),
        // Any song of the library as a stream of MP3 bytes at the bit rate asked, produced as
        // it is encoded (FFmpeg: decode, resample, libmp3lame, the mp3 muxer into memory).
        .target(name: "Transcoder", dependencies: ["CFFmpeg", "POSIXFile"]),
        // The station hears: each track's sound measured once from its decoded audio (aubio,
        // samples through Transcoder), kept in the station database by file, in the
        // background on every core, published as the library's SoundTable as it goes.
        .target(
            name: "SoundFeatures",
            dependencies: ["CAubio", "CEbur128", "Transcoder", "MusicLibrary", "StationStorage",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "Station",
            dependencies: [
                "RadioAPI", "StationStorage", "SeededRandom", "MusicLibrary", "Recommender", "DemoLibrary", "Transcoder", "POSIXFile",
                "SoundFeatures", "MhzVersion",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPS for `mhz serve --tls-cert/--tls-key`: Hummingbird's TLS child channel,
                // and NIOSSL's context to check the certificate and key before binding.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // The server on the station's own listening socket (kept across a restart):
                // Hummingbird's HTTP/1 connections, NIO's bootstrap on a bound descriptor,
                // NIOExtras' graceful quiescing.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The web player's files (HTML, CSS, JavaScript, and the script checker's
            // tsconfig.json) are not sources: EmbedWebPage builds them into the module.
            exclude: ["Web/Page"],
            plugins: ["EmbedWebPage"]
        ),
        // Offline listening: the download manager (a pure machine and the actor that runs
        // it), files and HLS streams fetched through HTTP, verified (and decrypted with
        // libcrypto), recorded in Store; tagged through a port the composition root fills
        // with MusicLibrary's TagLib door.
        .target(
            name: "Downloads",
            dependencies: ["HTTP", "HLSPlaylist", "Store", "Backoff", "COpenSSL", "POSIXFile",
                           .product(name: "Logging", package: "swift-log")]),
        .target(name: "TerminalUI", dependencies: ["Radio", "CNcurses"]),
        // The radio on the desktop's bus, a front end beside the terminal: MPRIS (media keys,
        // shells, playerctl) and a notification per song, over one sd-bus connection.
        .target(name: "Desktop", dependencies: ["Radio", "CSDBus", .product(name: "Logging", package: "swift-log")]),
        // What follows a playing radio beside its front end: the control socket (its server,
        // connections and line protocol, `mhz ctl`'s reader), the event lines they and the
        // hooks share, the event hook's runner, the command pump every way in feeds, song
        // covers as local files, and the radio's link to the desktop's bus.
        .target(
            name: "Companions",
            dependencies: ["Radio", "RadioAPI", "HTTP", "Desktop", .product(name: "Logging", package: "swift-log")]),
        // The link to a station: RadioAPI's requests carried over HTTP as the radio's
        // RadioService, the login kept between runs and in force while mhz runs, the logins.
        .target(
            name: "StationLink",
            dependencies: ["HTTP", "Radio", "RadioAPI", "POSIXFile", .product(name: "Logging", package: "swift-log")]),
        // The composition root's adapters: the layers' ports made real over the layers that
        // can fill them (the player, the database, downloads' tagging and repair, scrobbling's
        // transport and outbox, the media probe). No words of their own: those are handed in.
        .target(
            name: "Adapters",
            dependencies: ["Downloads", "HTTP", "MusicLibrary", "Playback", "Radio", "RadioAPI", "Scrobble", "Store",
                           "Transcoder", .product(name: "Logging", package: "swift-log")]),
        // The listener's settings as values: `config.toml` read into them (TOML through
        // TOMLKit, its errors typed, worded by the command line), one key set in the file's
        // text, and where mhz's files live.
        .target(
            name: "Settings",
            dependencies: ["HLSPlaylist", "Scrobble", "MhzVersion", .product(name: "TOMLKit", package: "TOMLKit")]),
        .executableTarget(
            name: "mhz",
            dependencies: [
                "HTTP", "RadioAPI", "Playback", "Store", "Radio", "Station", "TerminalUI", "Downloads", "HLSPlaylist", "CMalloc",
                "Companions", "Adapters", "StationLink", "Settings", "Transcoder", "Scrobble", "MhzVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The toolchain's lld packs the binary's relative relocations (RELR): a
            // megabyte of .rela.dyn becomes a quarter of one, and those pages are
            // dirtied at every start. A release build links the Swift runtime and
            // Foundation statically: only the code mhz reaches is paged in, and the
            // dynamic loader has a dozen fewer libraries to map and relocate. The modules
            // are compiled for the shared runtime, so their autolink entries do not name
            // the archives static Foundation needs; they are named here. Both measured in
            // BENCHMARKS.md (cold start 1.2× → 0.9× mpv's; peak RSS −6 MiB).
            //
            // A release binary also exports no symbols (Link/mhz.exports: every shared library's
            // symbol lookups searched the executable's 37 000 first) and places the functions a
            // listening session runs side by side at the start of its text (Link/mhz.order,
            // made by script/link-order): the kernel maps code 64 KiB around each page faulted
            // in, so scattered, they made 15 MiB resident for 1.7 MiB run. A function missing
            // from the list is placed after it. The linker moves sections, not functions, so
            // this needs every module compiled with -function-sections, which only the
            // command line reaches for the dependencies (script/build-release), and the
            // compiler's nameless functions gathered by a linker script (Link/mhz.ld).
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]),
                .unsafeFlags(["-static-stdlib", "-l_FoundationICU", "-l_FoundationCollections", "-l_FoundationCShims", "-lCoreFoundation",
                              "-Xlinker", "--version-script=\(linkFolder)/mhz.exports",
                              "-Xlinker", "--symbol-ordering-file=\(linkFolder)/mhz.order",
                              "-Xlinker", "--script=\(linkFolder)/mhz.ld",
                              "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
            ],
            // The commit it is built from (`BuildCommit.hash`, for --version).
            plugins: ["EmbedCommit"]
        ),

        // MARK: Build tools. The web player's files (Sources/Station/Web/Page) become Swift
        // string constants of the Station module: EmbedWebPage lists them as a build command's
        // inputs (an edit builds Station again), and EmbedFiles, run on the build machine,
        // writes them out. A bundle of resources would not do: `script/install` copies the
        // lone binary, and Bundle.module traps without its bundle.
        .executableTarget(name: "EmbedFiles", path: "Tools/EmbedFiles"),
        .plugin(name: "EmbedWebPage", capability: .buildTool(), dependencies: ["EmbedFiles"], path: "Plugins/EmbedWebPage"),
        // The commit HEAD names, read from .git's files by ReadCommit on the build machine;
        // a new commit builds the one generated file again.
        .executableTarget(name: "ReadCommit", path: "Tools/ReadCommit"),
        .plugin(name: "EmbedCommit", capability: .buildTool(), dependencies: ["ReadCommit"], path: "Plugins/EmbedCommit"),

        // MARK: Benchmarks (not tests). BenchKit is what they share: the mpv command line
        // and its IPC socket, percentiles, the HTTP load client (its socket from
        // TestSupport's LoopbackSocket), the station's benchmark.
        .target(name: "BenchKit", dependencies: ["Station", "MusicLibrary", "TestSupport"], path: "Benchmarks/BenchKit"),
        // `script/build-release StationBench`: scan rate and playlist latency under load.
        .executableTarget(name: "StationBench", dependencies: ["BenchKit"], path: "Benchmarks/StationBench"),
        // `mhz-bench`: the built mhz binary beside mpv (cold start, skips, CPU with the UI in
        // TestSupport's tmux driver) and the station, in one table.
        // `script/build-release mhz mhz-bench`.
        // `mhz-bench taste`'s pure part: the simulated listeners, the client that mirrors mhz's
        // radio, the references (shuffle, oracle), the window statistics and the report.
        .target(name: "TasteBench", dependencies: ["SeededRandom"], path: "Benchmarks/TasteBench"),
        .executableTarget(name: "mhz-bench", dependencies: ["BenchKit", "Station", "Transcoder", "SoundFeatures", "MusicLibrary",
                                                          "StationStorage", "CMalloc", "TestSupport", "TasteBench",
                                                          .product(name: "Logging", package: "swift-log")],
                         path: "Benchmarks/MhzBench"),

        // Helpers shared by test targets only: a Range-capable static file server on
        // 127.0.0.1 that records requests, temp dirs, and media generated with ffmpeg.
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/TestSupport"
        ),

        // Benchmark of the Playback layer beside the mpv CLI (not a test): serves generated
        // media with TestSupport's server. `script/build-release mhz-playback-bench`.
        .executableTarget(name: "mhz-playback-bench", dependencies: ["Playback", "TestSupport", "BenchKit"],
                          path: "Benchmarks/PlaybackBench"),

        // The terminal UI's ncurses loop with a fake radio, run in tmux by TerminalUITests.
        .executableTarget(name: "TUIHarness", dependencies: ["TerminalUI", "Radio"], path: "Tests/TUIHarness"),

        // MARK: Tests (swift-testing). Integration tests use the real libcurl, libmpv and station.
        .testTarget(name: "BackoffTests", dependencies: ["Backoff"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Backoff", "TestSupport"]),
        .testTarget(name: "RadioAPITests", dependencies: ["RadioAPI"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "HTTP", "Backoff", "TestSupport"]),
        // A station's song is tagged through the adapter (Adapters' TagLibSongTagger) and read back
        // with TagLib's C binding.
        .testTarget(name: "DownloadsTests", dependencies: ["Downloads", "HTTP", "HLSPlaylist", "Store", "Backoff", "CTagLib",
                                                          "CTagLibPictures", "TestSupport", "Adapters"]),
        // The services' requests byte for byte, the signature against a worked example, the
        // listen rule, and the courier over fakes of its ports.
        .testTarget(name: "ScrobbleTests", dependencies: ["Scrobble", "Backoff"]),
        .testTarget(name: "HLSPlaylistTests", dependencies: ["HLSPlaylist"], resources: [.copy("Fixtures")]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "RadioTests", dependencies: ["Radio", "RadioAPI", "Store", "Backoff", "TestSupport", "Adapters", "Companions",
                                                 "Playback"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "StationTests", dependencies: ["Station", "MusicLibrary", "Recommender", "DemoLibrary", "SeededRandom",
                                                   "StationStorage", "RadioAPI", "HTTP", "SoundFeatures", "TestSupport", "MhzVersion", "Transcoder",
                                                   .product(name: "GRDB", package: "GRDB.swift"),
                                                   // The live edge's channel handler in a pipeline of its own.
                                                   .product(name: "NIOEmbedded", package: "swift-nio"),
                                                   .product(name: "NIOCore", package: "swift-nio"),
                                                   .product(name: "HTTPTypes", package: "swift-http-types"),
                                                   .product(name: "NIOHTTPTypes", package: "swift-nio-extras")]),
        // Real files made with the ffmpeg command line, transcoded and checked with ffprobe.
        .testTarget(name: "TranscoderTests", dependencies: ["Transcoder", "TestSupport"]),
        // The taste benchmark's listeners, client and statistics against a scripted station.
        .testTarget(name: "TasteBenchTests", dependencies: ["TasteBench", "SeededRandom"], path: "Benchmarks/TasteBenchTests"),
        // Sounds made with the ffmpeg command line (tones, noise, damaged files), measured,
        // stored and resumed against a real station database.
        .testTarget(name: "SoundFeaturesTests", dependencies: ["SoundFeatures", "MusicLibrary", "StationStorage", "TestSupport",
                                                          .product(name: "GRDB", package: "GRDB.swift"),
                                                          .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Radio", "TUIHarness", "TestSupport"]),
        // A private dbus-daemon per test, the real playerctl and dbus-monitor against it, and
        // a notification server played through CSDBus.
        .testTarget(name: "DesktopTests", dependencies: ["Desktop", "Radio", "CSDBus", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["mhz", "Companions", "Adapters", "Settings", "Station", "MusicLibrary", "Recommender", "Store", "RadioAPI", "Radio", "Playback", "Backoff", "TestSupport", "SeededRandom",
                                                     "MhzVersion", "HTTP", .product(name: "Logging", package: "swift-log")]),
        // The network seam of the composition root (StationClient, sessions, login and
        // logout) against a recording Douban-style server on 127.0.0.1, in process and
        // through the built `mhz`.
        .testTarget(
            name: "NetworkTests",
            dependencies: [
                "mhz", "Companions", "StationLink", "Settings", "HTTP", "HLSPlaylist", "Backoff", "RadioAPI", "Radio", "TerminalUI", "TestSupport", "SeededRandom",
                "Downloads", "Store", "Station",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)
