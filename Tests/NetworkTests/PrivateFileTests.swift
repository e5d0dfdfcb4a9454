import Foundation
import TestSupport
import Testing
@testable import StationLink
@testable import mhz

/// Secrets on disk: mode 0600 whatever the umask, replaced whole, nothing left beside them,
/// and a failure that names the file.
struct PrivateFileTests {
    @Test func aSecretIsWrittenWithMode0600AndReplacedWhole() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-private")
        let file = dir.path("nested/session.json")
        let previous = umask(0)  // the most permissive umask: the mode must not depend on it
        defer { umask(previous) }
        try PrivateFile.write(Data("first".utf8), to: file)
        try PrivateFile.write(Data("second".utf8), to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "second")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("nested").path) == ["session.json"],
                "no temporary file is left beside it")
    }

    @Test func aFailureNamesTheFile() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-private")
        let blocker = dir.path("not-a-folder")
        try Data().write(to: blocker)
        #expect(throws: PrivateFile.Failure.self) { try PrivateFile.write(Data("x".utf8), to: blocker.appendingPathComponent("f")) }
        do {
            try PrivateFile.write(Data("x".utf8), to: blocker.appendingPathComponent("f"))
        } catch {
            #expect(error.words.contains(blocker.path), "\(error.words)")
        }
    }
}
