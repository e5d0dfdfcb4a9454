// libFuzzer entry point for config.toml's parser (not part of `swift build` or `swift
// test`): `script/fuzz config` builds it over mhz's Settings target and TOMLKit. Any
// file may be refused with a ConfigError; none may crash or hang.
import Foundation
import Settings

/// libFuzzer calls this with each input: the bytes of one config.toml.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    // Config.load refuses bytes that are not UTF-8 before TOML sees them.
    guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    guard let config = try? Config.read(text, path: "config.toml") else { return 0 }
    _ = config.downloads.folder(paths: paths, home: URL(fileURLWithPath: "/home/fuzz"))
    _ = config.downloads.quality.map(DownloadSettings.stationQuality)
    _ = config.station.quality.text
    _ = config.scrobble.endpoints
    return 0
}

/// The paths of a run without options.
private let paths = Paths(dataDir: nil, config: nil, environment: ["HOME": "/home/fuzz"])
