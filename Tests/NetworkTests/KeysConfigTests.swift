import Radio
import Settings
import TerminalUI
import Testing
@testable import mhz

/// `[keys]` as config files write it, read by the config loader and applied to the key
/// table as `mhz` does: a file written for the names of earlier versions still binds, and
/// an entry the table refuses is found by its line.
struct KeysConfigTests {
    static let main: [KeyContext] = [.global, .song]

    @Test func aFileWrittenWithTheFormerNameOfTheDownloadsViewStillBindsIt() throws {
        let config = try Config.parse("""
            [keys]
            downloads = "F2"
            skip = "N"
            "ctrl+r" = "downloads retry 4"
            """, path: "t.toml")
        let keymap = try Keymap(overrides: config.keys)
        #expect(keymap.action(for: .function(2), in: Self.main) == .openDownloads)
        #expect(keymap.keys(for: "downloads-view") == [.function(2)])
        #expect(keymap.action(for: .character("D"), in: Self.main) == nil, "the entry replaced the default key")
        #expect(keymap.action(for: .character("N"), in: Self.main) == .command(.skip))
        // The command word `downloads` is still the command, as a command line.
        #expect(keymap.action(for: .control("r"), in: Self.main) == .command(.downloadControl(.retry, id: 4)))
    }

    @Test func theFormerAndTheCurrentNameTogetherPointAtTheFormersLine() throws {
        let config = try Config.parse("[keys]\ndownloads-view = \"F2\"\ndownloads = \"F3\"\n", path: "t.toml")
        #expect(throws: KeymapError.formerName("downloads", current: "downloads-view")) {
            try Keymap(overrides: config.keys)
        }
        #expect(config.keyLines[KeymapError.formerName("downloads", current: "downloads-view").action] == 3)
    }
}
