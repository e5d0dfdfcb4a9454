import Foundation

/// A fresh directory under the system temp dir, removed by ``remove()`` or, at the latest,
/// when the value is deinitialised.
///
/// A test whose directory a server or a child process writes into removes it itself once
/// those have stopped (`script/check-leftovers` fails a run that leaves anything behind):
/// a value kept alive by a task that the test process never gets to run would otherwise
/// never be deinitialised.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory; `prefix` names it for debugging.
    public init(prefix: String = "mhz-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names the directory holds, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Removes the directory and what it holds; removing it again does nothing. A file
    /// made inside while the tree is being removed (a database closing, say) makes one
    /// pass fail with "not empty", so it tries a few times.
    public func remove() {
        for _ in 0..<5 {
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            if (try? FileManager.default.removeItem(at: url)) != nil { return }
            usleep(20_000)
        }
    }

    deinit { remove() }
}

extension TemporaryDirectory {
    /// One folder per test process for what it makes once and shares between its tests (a
    /// generated library, the demo library, HLS streams), each in a folder of its own
    /// inside; removed when the process exits, since a shared fixture lives as long as the
    /// process and is never deinitialised.
    public static let processShared: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mhz-shared-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("mhz-shared-\(getpid())", isDirectory: true)
            try? FileManager.default.removeItem(at: url)
        }
        return url
    }()
}
