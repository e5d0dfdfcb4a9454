import Foundation
import TestSupport

/// The demo library, synthesized once for the whole test run by `mhz serve` (which falls
/// back to it, as the radio's embedded station does, when there is no music folder):
/// synthesizing it is most of a first start's seconds, and only a test of that first start
/// needs to see it happen.
enum DemoSeed {
    private static let served = Task { () async throws -> URL in
        let home = TemporaryDirectory.processShared.appendingPathComponent("demo-seed", isDirectory: true)
        let serve = try BuiltMhz(["serve", "--data-dir", home.appendingPathComponent("data").path, "--port", "0"], home: home)
        _ = try await serve.whileRunning { try await $0.servedURL() }
        return home
    }

    /// Copies the demo library to `folder` (a station's `demo-library`), as a first start
    /// leaves it there.
    static func copy(to folder: URL) async throws {
        let library = try await served.value.appendingPathComponent("data/station/demo-library")
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library, to: folder)
    }
}
