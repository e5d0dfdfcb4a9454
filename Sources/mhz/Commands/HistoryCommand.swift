import Adapters
import ArgumentParser
import Companions
import Foundation
import Radio

/// `mhz history [--json] [--limit N]`: the songs the radio started, newest first, read from
/// the database (a running mhz keeps writing it beside).
struct HistoryCommand: ParsableCommand {
    /// The subcommand's name and summary.
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List the songs played, newest first.")

    /// `--data-dir`, `--config` (the others are not needed).
    @OptionGroup var global: GlobalOptions

    /// JSON lines instead of text.
    @Flag(help: "Print one JSON object per song per line.")
    var json = false

    /// How many songs, at most.
    @Option(help: "List at most this many songs (default: all).")
    var limit: Int?

    /// Refuses a limit below 1.
    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit)") }
    }

    /// Prints the history; exit status 1 with one line when the database cannot be read.
    func run() throws {
        do {
            try list()
        } catch {
            throw error.exit()
        }
    }

    private func list() throws(CLIError) {
        let settings = try RadioRuntime.settings(options: global)
        RadioRuntime.bootstrapLogging(paths: settings.paths, toStderr: false)
        let database = try DatabaseOpening.open(settings.paths)
        let entries: [ListenEntry]
        do throws(StorageFailure) {
            entries = try RadioHistory(database: database, station: "").recent(limit: limit)
        } catch {
            switch error {
            case .diskFull(let words), .failed(let words):
                throw .runtime("cannot read the history from \(settings.paths.database.path): \(words)")
            }
        }
        var out = ""
        for entry in entries { out += (json ? EventJSON.song(entry) : HistoryText.line(entry)) + "\n" }
        if !json, entries.isEmpty { out = "no songs played yet\n" }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}
