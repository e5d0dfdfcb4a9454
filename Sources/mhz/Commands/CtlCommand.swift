import ArgumentParser
import Companions
import Settings
import Foundation
import Radio

/// `mhz ctl COMMAND…` / `mhz ctl --follow`: talks to the mhz playing from the same data
/// directory through its control socket.
struct CtlCommand: ParsableCommand {
    /// The subcommand's name, summary and the words it sends.
    static let configuration = CommandConfiguration(
        commandName: "ctl", abstract: "Control a running mhz: send a command, print its answer.",
        discussion: discussion(CommandWord.table))

    /// The help's discussion, listing the commands of `table` (``CommandWord/table`` but
    /// in tests) that a playing mhz carries out.
    static func discussion(_ table: [CommandWord]) -> String {
        "Commands are those of headless stdin: "
            + table.filter { !$0.interactiveOnly }.map(\.usage).joined(separator: ", ") + ". " + """
            Each prints one JSON line; status prints the status object; history prints a JSON \
            line per song, newest first, as mhz history --json does. --follow prints every event \
            as a JSON line (as --headless does on stdout) until mhz quits or you interrupt it; a \
            command given with it is sent once following, its answer among the events. \
            The socket is $XDG_RUNTIME_DIR/mhz/mhz.sock, one per data directory: give ctl the same \
            --data-dir as the mhz you mean.
            """
    }

    /// `--data-dir` picks the mhz (one socket per data directory).
    @OptionGroup var global: GlobalOptions

    /// Stream events after the command (or without one).
    @Flag(help: "Print every event as a JSON line until mhz quits or you interrupt.")
    var follow = false

    /// The command line: `skip`, `channel -3`, `seek -10`. Unrecognized arguments, so a
    /// negative number is a word of the command rather than an option.
    @Argument(parsing: .allUnrecognized, help: "The command and its argument, e.g. skip, channel -3, volume 40.")
    var command: [String] = []

    /// Checks that there is something to do.
    func validate() throws {
        if command.isEmpty, !follow { throw ValidationError("give a command (e.g. mhz ctl skip) or --follow") }
    }

    /// Sends, prints, and exits 1 with one line when no mhz answers or the command failed.
    func run() throws {
        let socket = Paths(options: global).controlSocket.path
        let fd: Int32
        switch UnixSocket.connect(to: socket) {
        case .success(let connected): fd = connected
        case .failure(let error): throw CLIError.runtime(ControlText.describe(error, dataDirectory: dataDirectory)).exit()
        }
        defer { close(fd) }
        let reader = LineReader(fd: fd, maxLineBytes: Self.answerLineBytes)
        let line = command.joined(separator: " ")
        guard follow else {
            var answer = try exchange(line, fd: fd, reader: reader, socket: socket)
            if case .history? = try? RadioCommand.parse(line) {
                // A line per song comes before the answer: printed as they come.
                while !Self.isAnswer(answer) {
                    print(answer)
                    answer = try nextLine(reader: reader, socket: socket)
                }
                if !answer.contains("\"ok\":false") { return }
            }
            if answer.contains("\"ok\":false") {
                let message = (try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])?["error"] as? String
                throw CLIError.runtime(message ?? answer).exit()
            }
            print(answer)
            return
        }
        // Following first, then the command: its answer, and everything it causes, come
        // after the subscription, in the order mhz sends them.
        _ = try exchange(ControlAnswers.follow, fd: fd, reader: reader, socket: socket)
        if !command.isEmpty, !UnixSocket.send(fd, Array((line + "\n").utf8)) {
            throw CLIError.runtime(ControlText.describe(.noAnswer(socket: socket), dataDirectory: dataDirectory)).exit()
        }
        // Events until mhz quits (EOF) or the user interrupts (SIGINT's default ends ctl).
        reader.timeout = nil
        while let event = reader.next() {
            guard case .text(let text) = event else { continue }
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    /// The longest line ctl takes from mhz (an answer, a song of `history`, an event): far
    /// over any mhz writes, and a bound on what a stranger's socket can make ctl hold. An
    /// answer over it counts as no answer; an event over it is skipped.
    static let answerLineBytes = 1 << 20

    private var dataDirectory: String { Paths(options: global).dataDirectory.path }

    /// Whether `line` is a command's answer (it has `ok`), not a line before it.
    static func isAnswer(_ line: String) -> Bool {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["ok"] != nil
    }

    /// The next line from mhz.
    private func nextLine(reader: LineReader, socket: String) throws -> String {
        guard let line = reader.next()?.text else {
            throw CLIError.runtime(ControlText.describe(.noAnswer(socket: socket), dataDirectory: dataDirectory)).exit()
        }
        return line
    }

    /// Sends one line and returns the answer line.
    private func exchange(_ line: String, fd: Int32, reader: LineReader, socket: String) throws -> String {
        guard UnixSocket.send(fd, Array((line + "\n").utf8)), let answer = reader.next()?.text else {
            throw CLIError.runtime(ControlText.describe(.noAnswer(socket: socket), dataDirectory: dataDirectory)).exit()
        }
        return answer
    }
}

/// Words for the control socket's failures (`mhz ctl`, and `mhz` refusing to start twice).
enum ControlText {
    /// One line: what happened and what to do.
    static func describe(_ error: ControlError, dataDirectory: String) -> String {
        switch error {
        case .alreadyRunning(let socket):
            "another mhz is already playing from \(dataDirectory) (its control socket is \(socket)): "
                + "control it with mhz ctl, quit it, or start this one with another --data-dir"
        case .cannotListen(let socket, let code):
            "cannot make the control socket \(socket): \(String(cString: strerror(code))) — "
                + "check XDG_RUNTIME_DIR and the data directory's permissions"
        case .notRunning(let socket):
            "no mhz is playing from \(dataDirectory) (no control socket at \(socket)): start one with mhz or "
                + "mhz --headless, or give ctl the same --data-dir"
        case .cannotConnect(let socket, let code):
            "cannot connect to \(socket): \(String(cString: strerror(code)))"
        case .noAnswer(let socket):
            "mhz did not answer on \(socket) within 15 s (it may be stuck or quitting)"
        }
    }
}
