import Foundation

/// `mhz-bench [--quick] [--mhz PATH] [--work DIR]`: how many iterations, which binary, and
/// where the generated libraries and data directories go.
struct BenchOptions {
    /// Fewer iterations and a smaller library, for a look in about two minutes.
    var quick = false
    /// The `mhz` binary measured: by default the one built beside this benchmark.
    var mhz: String
    /// Work folder: the generated station library is kept there between runs.
    var work: URL

    /// Cold starts per program (the issue asks for the median of 10).
    var coldStarts: Int { quick ? 3 : 10 }
    /// Skips per program (p50/p95 over 50).
    var skips: Int { quick ? 10 : 50 }
    /// Seconds of playback for CPU and RSS.
    var playbackSeconds: Double { quick ? 10 : 30 }
    /// Files in the station benchmark's library.
    var libraryFiles: Int { quick ? 300 : 2000 }
    /// Playlist requests per concurrency level.
    var requestsPerLevel: Int { quick ? 800 : 4000 }
    /// Concurrent clients of the station benchmark.
    let concurrency = [1, 16, 64]

    /// The one-line synopsis, for `--help` and mistakes.
    static let usage = "usage: mhz-bench [--quick] [--mhz PATH] [--work DIR]\n"
        + "       mhz-bench soak [--minutes N] [--mhz PATH] [--work DIR]\n"
        + "       mhz-bench taste [--quick] [--seed N] [--listener NAME…] [--library NAME] [--songs N] [--variety LIST]"
        + "\n       mhz-bench sound [--quick] [--work DIR]"
        + "\n       mhz-bench scale [--tracks N] [--clients N] [--requests N] [--kill-after SECONDS] [--mhz PATH] [--work DIR]"

    /// Parses the arguments after the program name.
    init(_ arguments: [String]) throws(BenchUsage) {
        mhz = Self.besideSelf("mhz")
        work = URL(fileURLWithPath: NSTemporaryDirectory() + "mhz-bench", isDirectory: true)
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--mhz", "--work":
                guard let value = iterator.next() else { throw BenchUsage("\(argument) needs a value\n\(Self.usage)") }
                if argument == "--mhz" { mhz = value } else { work = URL(fileURLWithPath: value, isDirectory: true) }
            case "-h", "--help": throw BenchUsage(Self.usage, help: true)
            default: throw BenchUsage("unknown option \(argument)\n\(Self.usage)")
            }
        }
    }

    /// `name` in the folder of this executable (`.build/release` when built there).
    static func besideSelf(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
    }
}

/// A command line that cannot be run, with what to say.
struct BenchUsage: Error {
    /// What to print.
    let message: String
    /// `--help` was asked for: not an error.
    let help: Bool

    /// A usage error, or the help text when `help`.
    init(_ message: String, help: Bool = false) {
        self.message = message
        self.help = help
    }
}
