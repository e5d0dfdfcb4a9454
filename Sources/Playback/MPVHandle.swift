import CMpv
import Foundation
import Synchronization

/// The raw `mpv_handle` as the event-loop thread needs it: `mpv_wait_event` blocks, so that
/// thread cannot go through `MPVHandle`'s lock. Valid until `MPVHandle.destroy()`, which the
/// owner calls only after the loop has exited.
struct MPVEventSource: @unchecked Sendable {
    /// The `mpv_handle *`.
    let raw: OpaquePointer
}

/// Owns one `mpv_handle`: creation, options, commands, properties, and destruction.
///
/// client.h: "The client API is generally fully thread-safe", so any thread may call in. The
/// lock here only orders calls against shutdown, so no call can reach a destroyed handle.
final class MPVHandle: Sendable {
    /// Where the handle is in its life.
    private enum Phase { case running, stopping, destroyed }

    /// What `beginShutdown()` did.
    enum ShutdownStart: Equatable {
        /// This call began the shutdown; `quitAccepted` is false if mpv refused `quit`, in
        /// which case no `MPV_EVENT_SHUTDOWN` will come and the loop must be woken instead.
        case began(quitAccepted: Bool)
        /// An earlier call already began it.
        case alreadyBegun
    }

    private let source: MPVEventSource
    private let phase = Mutex(Phase.running)

    /// Creates an uninitialized handle (options can still be set).
    /// - Throws: `.creationFailed` when `mpv_create` returns NULL.
    init() throws(PlaybackError) {
        // client.h: "The LC_NUMERIC locale category must be set to "C". If your program calls
        // setlocale(), be sure not to use LC_ALL, or if you do, reset LC_NUMERIC to its
        // sane default". mpv_create returns NULL after setlocale(LC_ALL, "") otherwise.
        setlocale(LC_NUMERIC, "C")
        guard let raw = mpv_create() else {
            if let why = mhz_mpv_load_error() { throw .creationFailed("cannot load libmpv: \(String(cString: why))") }
            throw .creationFailed("mpv_create returned NULL (out of memory or bad LC_NUMERIC locale)")
        }
        source = MPVEventSource(raw: raw)
    }

    /// Destroys a handle that never had an event loop (a failed `PlayerController.init`).
    /// A running controller destroys it through `destroy()` after joining its loop.
    deinit {
        if phase.withLock({ $0 }) != .destroyed { mpv_terminate_destroy(source.raw) }
    }

    /// Whether shutdown has begun (commands are refused from then on).
    var isShutDown: Bool { phase.withLock { $0 } != .running }

    /// The raw handle for `MPVEventLoop`.
    var eventSource: MPVEventSource { source }

    /// Runs `body` with the raw handle unless shutdown has begun.
    private func withRunning<Result>(
        _ body: (OpaquePointer) throws(PlaybackError) -> Result
    ) throws(PlaybackError) -> Result {
        try phase.withLock { phase throws(PlaybackError) in
            guard phase == .running else { throw .shutDown }
            return try body(source.raw)
        }
    }

    // MARK: - Set-up

    /// Sets an option before `initialize()`.
    /// - Throws: `.optionRejected` with mpv's reason.
    func setOption(_ name: String, _ value: MPVOptionValue) throws(PlaybackError) {
        let rc: Int32 = try withRunning { raw in
            switch value {
            case .string(let string): mpv_set_option_string(raw, name, string)
            case .list(let items):
                MPVNode.withStringArray(items) { node in mpv_set_option(raw, name, MPV_FORMAT_NODE, node) }
            }
        }
        if rc < 0 { throw .optionRejected(name: name, message: mpvErrorText(rc)) }
    }

    /// Starts the player core with the options set so far.
    /// - Throws: `.creationFailed` with mpv's reason.
    func initialize() throws(PlaybackError) {
        let rc = try withRunning { raw in mpv_initialize(raw) }
        if rc < 0 { throw .creationFailed("mpv_initialize: \(mpvErrorText(rc))") }
    }

    /// Asks for `MPV_EVENT_PROPERTY_CHANGE` events for `property` in its observed format
    /// (does nothing for properties that are only read).
    func observe(_ property: MPVProperty) throws(PlaybackError) {
        let format: mpv_format
        switch property.observedFormat {
        case .double: format = MPV_FORMAT_DOUBLE
        case .flag: format = MPV_FORMAT_FLAG
        case .node: format = MPV_FORMAT_NODE
        case nil: return
        }
        let rc = try withRunning { raw in mpv_observe_property(raw, 0, property.rawValue, format) }
        if rc < 0 { throw .commandFailed(name: "observe \(property.rawValue)", message: mpvErrorText(rc)) }
    }

    /// Asks for `MPV_EVENT_LOG_MESSAGE`s at `level` and above (client.h: "The log level as
    /// string. Valid log levels: no fatal error warn info v debug trace").
    func requestLogMessages(level: String) throws(PlaybackError) {
        let rc = try withRunning { raw in mpv_request_log_messages(raw, level) }
        if rc < 0 { throw .commandFailed(name: "request log messages", message: mpvErrorText(rc)) }
    }

    // MARK: - Commands

    /// Runs a command with positional arguments and waits for it to finish.
    func command(_ command: MPVCommand, _ arguments: [String] = []) throws(PlaybackError) {
        let strings = ([command.rawValue] + arguments).map { strdup($0) }
        defer { strings.forEach { free($0) } }
        // mpv_command takes a NULL-terminated `const char **`.
        var argv: [UnsafePointer<CChar>?] = strings.map { UnsafePointer($0) } + [nil]
        let rc = try withRunning { raw in argv.withUnsafeMutableBufferPointer { mpv_command(raw, $0.baseAddress) } }
        if rc < 0 { throw .commandFailed(name: command.rawValue, message: mpvErrorText(rc)) }
    }

    /// Runs a command with named arguments (`mpv_command_node` with a map) and returns a
    /// copy of its reply.
    func command(_ command: MPVCommand, named arguments: [(String, String)]) throws(PlaybackError) -> MPVNode {
        try withRunning { raw throws(PlaybackError) in
            var result = mpv_node()
            let rc = MPVNode.withStringMap([(MPVArgument.name, command.rawValue)] + arguments) { args in
                mpv_command_node(raw, args, &result)
            }
            if rc < 0 { throw .commandFailed(name: command.rawValue, message: mpvErrorText(rc)) }
            // client.h: "You must call mpv_free_node_contents() to free it (again, only if
            // the command actually succeeds)."
            defer { mpv_free_node_contents(&result) }
            return MPVNode(copying: result)
        }
    }

    /// Queues an argument-less command; its `MPV_EVENT_COMMAND_REPLY` carries `replyID`.
    func commandAsync(_ command: MPVCommand, replyID: UInt64) throws(PlaybackError) {
        let name = strdup(command.rawValue)
        defer { free(name) }
        var argv: [UnsafePointer<CChar>?] = [UnsafePointer(name), nil]
        let rc = try withRunning { raw in
            argv.withUnsafeMutableBufferPointer { mpv_command_async(raw, replyID, $0.baseAddress) }
        }
        if rc < 0 { throw .commandFailed(name: command.rawValue, message: mpvErrorText(rc)) }
    }

    // MARK: - Properties

    /// Sets a flag property.
    func set(_ property: MPVProperty, flag: Bool) throws(PlaybackError) {
        var value: Int32 = flag ? 1 : 0
        let rc = try withRunning { raw in mpv_set_property(raw, property.rawValue, MPV_FORMAT_FLAG, &value) }
        if rc < 0 { throw .commandFailed(name: "set \(property.rawValue)", message: mpvErrorText(rc)) }
    }

    /// Sets a numeric property.
    func set(_ property: MPVProperty, double: Double) throws(PlaybackError) {
        var value = double
        let rc = try withRunning { raw in mpv_set_property(raw, property.rawValue, MPV_FORMAT_DOUBLE, &value) }
        if rc < 0 { throw .commandFailed(name: "set \(property.rawValue)", message: mpvErrorText(rc)) }
    }

    /// Reads a numeric property; nil when mpv has no value (`MPV_ERROR_PROPERTY_UNAVAILABLE`,
    /// e.g. `time-pos` while idle) or the handle is shutting down.
    func double(_ property: MPVProperty) -> Double? {
        var value = 0.0
        let rc = try? withRunning { raw in mpv_get_property(raw, property.rawValue, MPV_FORMAT_DOUBLE, &value) }
        guard let rc, rc >= 0 else { return nil }
        return value
    }

    /// Sets a string property.
    func set(_ property: MPVProperty, string: String) throws(PlaybackError) {
        let rc = try withRunning { raw in mpv_set_property_string(raw, property.rawValue, string) }
        if rc < 0 { throw .commandFailed(name: "set \(property.rawValue)", message: mpvErrorText(rc)) }
    }

    /// Reads a property as a node tree (maps, arrays); nil when unavailable or shutting down.
    func node(_ property: MPVProperty) -> MPVNode? {
        try? withRunning { raw in
            var node = mpv_node()
            guard mpv_get_property(raw, property.rawValue, MPV_FORMAT_NODE, &node) >= 0 else { return nil }
            // client.h (MPV_FORMAT_NODE): "you must call mpv_free_node_contents() to free
            // memory" after a successful mpv_get_property with this format.
            defer { mpv_free_node_contents(&node) }
            return MPVNode(copying: node)
        }
    }

    /// Reads a string property; nil when unavailable or shutting down.
    func string(_ property: MPVProperty) -> String? {
        try? withRunning { raw in
            guard let text = mpv_get_property_string(raw, property.rawValue) else { return nil }
            defer { mpv_free(text) }
            return String(cString: text)
        }
    }

    /// Reads a flag property; nil when unavailable or shutting down.
    func flag(_ property: MPVProperty) -> Bool? {
        var value: Int32 = 0
        let rc = try? withRunning { raw in mpv_get_property(raw, property.rawValue, MPV_FORMAT_FLAG, &value) }
        guard let rc, rc >= 0 else { return nil }
        return value != 0
    }

    // MARK: - Shutdown

    /// Refuses further calls and sends `quit`, after which every client of the core
    /// receives `MPV_EVENT_SHUTDOWN`.
    func beginShutdown() -> ShutdownStart {
        phase.withLock { phase in
            guard phase == .running else { return .alreadyBegun }
            phase = .stopping
            let name = strdup(MPVCommand.quit.rawValue)
            defer { free(name) }
            var argv: [UnsafePointer<CChar>?] = [UnsafePointer(name), nil]
            let rc = argv.withUnsafeMutableBufferPointer { mpv_command(source.raw, $0.baseAddress) }
            return .began(quitAccepted: rc >= 0)
        }
    }

    /// Interrupts a blocked `mpv_wait_event` (it returns `MPV_EVENT_NONE`). Harmless once
    /// destroyed (then it does nothing).
    func wakeup() {
        phase.withLock { phase in
            if phase != .destroyed { mpv_wakeup(source.raw) }
        }
    }

    /// Frees the handle. Call only after the event loop has exited: client.h says the event
    /// pointer stays valid "until the next mpv_wait_event() call, or until the mpv_handle is
    /// destroyed", so a thread still waiting would touch freed memory.
    func destroy() {
        phase.withLock { phase in
            guard phase != .destroyed else { return }
            phase = .destroyed
            mpv_terminate_destroy(source.raw)
        }
    }
}
