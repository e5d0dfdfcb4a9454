// swift-tools-version: 6.1
// config.toml's parser as a libFuzzer target, apart from the mhz package: its files are
// linked in from Sources/Settings (Config, ConfigError, DownloadSettings, HookSettings,
// RadioSettings, StationSettings, Paths) and Sources/HLSPlaylist, and TOMLKit wraps toml++ (C++), which swiftc alone
// cannot build. `script/fuzz config` builds this with -sanitize=fuzzer,address into
// .build-fuzz and links the static library with libFuzzer's main.
import PackageDescription

let package = Package(
    name: "ConfigFuzz",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ConfigFuzz", type: .static, targets: ["ConfigFuzz"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .target(name: "HLSPlaylist"),
        .target(
            name: "ConfigFuzz",
            dependencies: [
                "HLSPlaylist",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
    ]
)
