// swift-tools-version: 6.1
// config.toml's parser as a libFuzzer target, apart from the mhz package: its targets are
// mhz's own folders linked in whole (Sources/Settings and what it imports: HLSPlaylist,
// Scrobble, MhzVersion, Backoff, COpenSSL), so a file the settings gain is fuzzed without a
// change here (a module they come to import needs its line here: script/check-architecture
// compares these dependencies with docs/ARCHITECTURE.md's import table),
// and TOMLKit wraps toml++ (C++), which swiftc alone cannot build. `script/fuzz config`
// builds this with -sanitize=fuzzer,address into .build-fuzz and links the static library
// with libFuzzer's main.
import PackageDescription

let package = Package(
    name: "ConfigFuzz",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ConfigFuzz", type: .static, targets: ["ConfigFuzz"])
    ],
    dependencies: [
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto"),
        .target(name: "Backoff"),
        .target(name: "HLSPlaylist"),
        .target(name: "MhzVersion"),
        .target(name: "Scrobble", dependencies: ["Backoff", "COpenSSL"]),
        .target(name: "Settings", dependencies: ["HLSPlaylist", "MhzVersion", "Scrobble", .product(name: "TOMLKit", package: "TOMLKit")]),
        .target(name: "ConfigFuzz", dependencies: ["Settings"]),
    ]
)
