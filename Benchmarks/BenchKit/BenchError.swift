/// Why a measurement could not be taken. One vocabulary for every benchmark, so a shared
/// helper (the mpv driver, the load client) fails the same way whichever bench runs it.
public enum BenchError: Error, CustomStringConvertible {
    /// Something awaited did not happen in time.
    case timeout(String)
    /// The `mpv` command line failed or answered unexpectedly.
    case mpv(String)
    /// A socket call failed.
    case socket(String)
    /// A server answered something that is not HTTP as expected.
    case protocolError(String)
    /// An external tool (ffmpeg, tmux, mhz) failed.
    case tool(String)
    /// No executable mhz at the path given (the release build's by default).
    case noMhz(path: String)

    /// One line for the terminal.
    public var description: String {
        switch self {
        case .timeout(let what): "timed out: \(what)"
        case .mpv(let what): "mpv CLI: \(what)"
        case .socket(let what): "socket: \(what) failed"
        case .protocolError(let what): "unexpected answer: \(what.prefix(200))"
        case .tool(let what): what
        case .noMhz(let path): "no mhz binary at \(path): build it with `script/build-release`, or name it with --mhz PATH"
        }
    }
}
