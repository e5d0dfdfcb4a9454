import ArgumentParser
import Downloads
import Foundation
import Store

/// `mhz downloads [--json]` lists the downloads; `mhz downloads pause|resume|cancel|remove ID…`
/// changes them (a running mhz follows within a second; `resume` also runs them here until done).
struct DownloadsCommand: AsyncParsableCommand {
    /// The subcommand's name and summary.
    static let configuration = CommandConfiguration(
        commandName: "downloads", abstract: "List downloads, or pause, resume, cancel or remove them.")

    /// `--server`, `--api`, `--data-dir`, `--config`.
    @OptionGroup var global: GlobalOptions

    /// JSON lines instead of the table.
    @Flag(help: "Print one JSON object per download per line.")
    var json = false

    /// Nothing (list), or an action and the ids it applies to.
    @Argument(help: "pause, resume, cancel or remove, then download ids.")
    var words: [String] = []

    /// What the command does with the ids.
    enum Action: String {
        case pause, resume, cancel, remove
    }

    /// Refuses an unknown action, an action without ids and an id that is not a number.
    func validate() throws {
        guard let first = words.first else { return }
        guard Action(rawValue: first) != nil else {
            throw ValidationError("unknown action \"\(first)\": use pause, resume, cancel or remove, then download ids")
        }
        guard words.count > 1 else { throw ValidationError("\(first) needs download ids: `mhz downloads` lists them") }
        for word in words.dropFirst() where Int64(word) == nil {
            throw ValidationError("\"\(word)\" is not a download id: `mhz downloads` lists them")
        }
    }

    /// Lists or acts; exit status 1 when a resumed download did not complete.
    func run() async throws {
        do {
            if try await perform() { throw ExitCode.failure }
        } catch let error as CLIError {
            throw error.exit()
        }
    }

    private func perform() async throws(CLIError) -> Bool {
        let settings = try RadioRuntime.settings(options: global)
        let paths = settings.paths
        RadioRuntime.bootstrapLogging(paths: paths, toStderr: false)
        let database = try DatabaseOpening.open(paths)
        let control = DownloadSetup.manager(paths: paths, config: settings.config, database: database, control: true)
        do throws(DownloadError) {
            try await control.start()
            guard let word = words.first, let action = Action(rawValue: word) else {
                list(await control.tasks())
                await control.shutdown()
                return false
            }
            let ids = words.dropFirst().compactMap { Int64($0) }
            for id in ids {
                switch action {
                case .pause: try await control.pause(id)
                case .resume: try await control.resume(id)
                case .cancel: try await control.cancel(id)
                case .remove: try await control.remove(id)
                }
            }
            await control.shutdown()
            guard action == .resume else { return false }
            // Run here until they settle, as `mhz download` does.
            let manager = DownloadSetup.manager(paths: paths, config: settings.config, database: database)
            return try await DownloadRun.run(manager, json: json) { _ in Set(ids) }
        } catch {
            await control.shutdown()
            throw .runtime(DownloadText.describe(error))
        }
    }

    private func list(_ tasks: [DownloadTask]) {
        if json {
            for task in tasks { print(DownloadJSON.line(task)) }
            return
        }
        if tasks.isEmpty {
            print("no downloads: `mhz download URL`, `mhz download --current` or `d` while playing adds one")
            return
        }
        for task in tasks {
            var line = String(format: "%4lld  ", task.id) + task.state.name.padding(toLength: 10, withPad: " ", startingAt: 0)
            if let total = task.total, total > 0, task.state != .completed {
                line += "\(DownloadText.size(task.bytes))/\(DownloadText.size(total))  "
            } else {
                line += DownloadText.size(task.bytes) + "  "
            }
            line += DownloadText.name(task)
            if task.state == .completed { line += "  \(task.record.path)" }
            if let reason = DownloadText.reason(task) { line += " — " + reason }
            print(line)
        }
    }
}
