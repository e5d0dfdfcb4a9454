import Foundation

/// The words after a subcommand (`scale`, `live`), read one flag at a time, with the
/// subcommand's usage line in every error, and the flags every subcommand shares.
struct BenchArguments {
    private var rest: ArraySlice<String>
    /// The subcommand's usage line.
    let usage: String

    /// Reads `arguments` (after the subcommand's name).
    init(_ arguments: [String], usage: String) {
        rest = arguments[...]
        self.usage = usage
    }

    /// The next word, `nil` at the end.
    mutating func next() -> String? {
        rest.popFirst()
    }

    /// The positive number that must follow `flag`.
    mutating func positiveNumber(after flag: String) throws(BenchUsage) -> Double {
        guard let text = rest.popFirst(), let value = Double(text), value > 0 else {
            throw BenchUsage("\(flag) needs a positive number\n" + usage)
        }
        return value
    }

    /// The positive numbers, separated by commas, that must follow `flag` (`100,500,1000`).
    mutating func positiveNumbers(after flag: String) throws(BenchUsage) -> [Double] {
        let words = rest.popFirst()?.split(separator: ",", omittingEmptySubsequences: false) ?? []
        let values = words.compactMap { Double($0) }.filter { $0 > 0 && $0.isFinite }
        guard !values.isEmpty, values.count == words.count else {
            throw BenchUsage("\(flag) needs positive numbers separated by commas\n" + usage)
        }
        return values
    }

    /// Takes `flag` if it is one every subcommand knows: `--mhz PATH`, `--work DIR`, `-h`
    /// (`--help`); throws for any other flag, naming it.
    mutating func common(_ flag: String, mhz: inout String, work: inout URL) throws(BenchUsage) {
        switch flag {
        case "--mhz":
            guard let path = rest.popFirst() else { throw BenchUsage("--mhz needs a path\n" + usage) }
            mhz = path
        case "--work":
            guard let path = rest.popFirst() else { throw BenchUsage("--work needs a folder\n" + usage) }
            work = URL(fileURLWithPath: path, isDirectory: true)
        case "-h", "--help":
            throw BenchUsage(usage, help: true)
        default:
            throw BenchUsage("unknown argument \(flag)\n" + usage)
        }
    }
}
