import Companions
import Dispatch
import Foundation
import Radio
import Synchronization
import TerminalUI

/// How a playing mhz answers its control socket: the headless stdin vocabulary, through the
/// same command pump as keys and stdin (so commands from everywhere keep one order), one
/// JSON line per command; and `follow`, the socket's own word, for the event stream.
struct ControlAnswers: Sendable {
    /// Where commands go.
    let pump: CommandPump
    /// Asked directly for `status`, which answers the client that asked rather than every
    /// listener of the event stream: the radio's session or a live channel's.
    let session: any AnsweringSession
    /// The socket's own word, beside the commands: the connection becomes the event stream.
    static let follow = "follow"
    /// How long a client's line may wait for the radio before it is told so.
    static let patience = DispatchTimeInterval.seconds(10)

    /// The reply to one line. A command is answered once the session has handled it
    /// (`{"command":"skip","ok":true}`): a skip's next song is already loading. `status` is
    /// answered with the status object headless stdout prints; a line that is not a command
    /// (or is too long to be one) with `{"error":…,"ok":false}` and the same words headless
    /// stdin prints. `history` is answered with a line per song, newest first, before its
    /// `ok` line.
    func reply(to line: LineReader.Line) -> ControlReply {
        let command: RadioCommand
        do throws(CommandParseError) {
            guard let read = try line.commandText() else { return .none }
            let text = read.trimmingCharacters(in: .whitespaces)
            if text.lowercased() == Self.follow { return .follow(Self.ok(Self.follow)) }
            command = try RadioCommand.parse(text)
        } catch {
            return .failure(ErrorText.describe(error, for: .reader(also: [Self.follow])))
        }
        let session = self.session
        if command == .status {
            guard let snapshot = Self.wait({ await session.currentSnapshot() }) else { return Self.late(command) }
            return .answer(EventJSON.line(.status(snapshot)))
        }
        if case .history(let limit) = command {
            // The songs a line each, as `mhz history --json` prints them, then the answer.
            guard let entries = Self.wait({ await session.history(limit: RadioCommand.historyCount(limit)) })
            else { return Self.late(command) }
            return .answer((entries.map(EventJSON.song) + [Self.ok(command.line)]).joined(separator: "\n"))
        }
        let done = DispatchSemaphore(value: 0)
        pump.send(command) { done.signal() }
        guard done.wait(timeout: .now() + Self.patience) == .success else { return Self.late(command) }
        return .answer(Self.ok(command.line))
    }

    private static func ok(_ command: String) -> String {
        EventJSON.serialize(["ok": .bool(true), "command": .string(command)])
    }

    private static func late(_ command: RadioCommand) -> ControlReply {
        .failure("mhz did not take \"\(command.line)\" within 10 s; it is still queued")
    }

    /// Runs `work` and waits for its result on this thread (a connection's reader, never a
    /// thread of the concurrency pool), at most ``patience``.
    private static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T? {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + patience) == .success else { return nil }
        return result.withLock { $0 }
    }
}

/// What the control socket asks a session directly, beside the commands the pump takes.
protocol AnsweringSession: Sendable {
    /// What a front end would draw now (`status`).
    func currentSnapshot() async -> RadioSnapshot
    /// The songs started, newest first, at most `limit` (`history`).
    func history(limit: Int?) async -> [ListenEntry]
}

extension RadioSession: AnsweringSession {}

extension LiveSession: AnsweringSession {
    /// The snapshot the terminal UI draws.
    func currentSnapshot() async -> RadioSnapshot { snapshot() }

    /// None: a live channel's listening keeps no history (the station's `aired.json` is it).
    func history(limit: Int?) async -> [ListenEntry] { [] }
}
