import Foundation
import TestSupport
import Testing
@testable import mhz

/// `script/install` with a private prefix: every file where a desktop looks for it, made
/// from the binary installed (its completions and man page know `ctl`), and the unit that
/// runs its `mhz serve`.
struct InstallScriptTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs a program to its end in the repository, on a thread of its own; stdout and
    /// stderr together.
    private func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await Tool.output(executable, arguments, directory: Self.repository, mergingErrors: true)
        return (result.status, result.text)
    }

    @Test func installsTheBinaryCompletionsManPageAndUnit() async throws {
        // script/test builds the man page generator before the tests: a `swift build` from
        // inside `swift test` would wait for the build directory's lock.
        try #require(FileManager.default.isExecutableFile(atPath: Self.repository.path + "/.build/debug/generate-manual"),
                     "run script/test (it builds generate-manual first)")
        let home = try TemporaryDirectory(prefix: "mhz-install")
        let prefix = home.path("local").path, config = home.path("config").path
        let result = try await run(Self.repository.path + "/script/install",
                             ["--prefix", prefix, "--config-home", config, "--binary", BuiltProduct.path("mhz")])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(
            "systemctl --user daemon-reload && systemctl --user enable --now mhz-serve.socket mhz-serve.service"))
        #expect(result.output.contains("systemctl --user reload mhz-serve.service"))

        // The binary is the one given, stripped of its symbol table and debug sections, and runs.
        let installed = prefix + "/bin/mhz"
        let sections = try await run("/usr/bin/readelf", ["-S", "-W", installed]).output
        let givenSections = try await run("/usr/bin/readelf", ["-S", "-W", BuiltProduct.path("mhz")]).output
        #expect(givenSections.contains(" .symtab ") && givenSections.contains(" .debug_info "))
        #expect(!sections.contains(" .symtab ") && !sections.contains(" .debug_") && sections.contains(" .dynsym "), "\(sections)")
        let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        #expect(size(installed) > 0 && size(installed) < size(BuiltProduct.path("mhz")) * 2 / 3)
        #expect(try await run(installed, ["--help"]).output.contains("ctl"))

        // bash registers the completion; zsh and fish know the new subcommand and its flag.
        let bash = try await run("/bin/bash", ["-c", "source '\(prefix)/share/bash-completion/completions/mhz' && complete -p mhz"])
        #expect(bash.output == "complete -o filenames -F _mhz mhz\n")
        let zsh = try String(contentsOfFile: prefix + "/share/zsh/site-functions/_mhz", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef mhz"))
        #expect(zsh.contains("'ctl:Control a running mhz: send a command, print its answer.'"))
        let fish = try String(contentsOfFile: config + "/fish/completions/mhz.fish", encoding: .utf8)
        #expect(fish.contains("-l 'follow' -d 'Print every event as a JSON line until mhz quits or you interrupt.'"))

        // The man page is roff from the same definitions, with the ctl section, and the
        // sections a radio's manual has (pianobar's), made from the key table, the
        // configuration's reference and the paths in effect: each once, in that order,
        // in place of generate-manual's generic exit status.
        let man = try String(contentsOfFile: prefix + "/share/man/man1/mhz.1", encoding: .utf8)
        #expect(man.contains(".Dt MHZ 1"))
        #expect(man.contains(".It Em ctl"))
        let headers = man.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) }
        let titles = ManualSections.titles.map { $0.contains(" ") ? "\"\($0)\"" : $0 }
        #expect(titles.first == "KEYS" && titles.count == 9)
        #expect(Array(headers.drop { $0 != "KEYS" }.prefix(titles.count)) == titles, "\(headers)")
        #expect(Set(headers).count == headers.count, "\(headers)")
        #expect(!man.contains(".Ex -std"))
        #expect(man.contains(ManualSections.all().joined(separator: "\n") + "\n"))
        for key in ConfigReference.parsedKeys.values.joined() {
            #expect(man.contains(".It Cm \\&\(key) Ns = Ns Ar "), "\(key)")
        }
        for action in ["toggle", "skip", "like", "trash", "downloads-pause", "list-choose"] {
            #expect(man.contains(".Pq Cm \\&\(action)\n"), "\(action)")
        }

        let unit = try String(contentsOfFile: config + "/systemd/user/mhz-serve.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(prefix)/bin/mhz serve\n"))
        #expect(unit.contains("\nWantedBy=default.target\n"))
        // Socket activation: systemd holds the socket across restarts; reload is SIGHUP,
        // on which the station restarts itself in place.
        #expect(unit.contains("\nRequires=mhz-serve.socket\n"))
        #expect(unit.contains("\nExecReload=/bin/kill -HUP $MAINPID\n"))
        let socket = try String(contentsOfFile: config + "/systemd/user/mhz-serve.socket", encoding: .utf8)
        #expect(socket.contains("\n[Socket]\nListenStream=127.0.0.1:7650\n"))
        #expect(socket.contains("\nWantedBy=sockets.target\n"))
    }
}
