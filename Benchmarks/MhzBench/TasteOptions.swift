import Foundation
import TasteBench

/// `mhz-bench taste [--quick] [--seed N | --seeds N,N…] [--listener NAME…] [--library NAME] [--songs N]
/// [--variety LIST] [--mhz PATH] [--work DIR]`.
struct TasteOptions {
    /// A shorter look: fewer songs, fewer shuffles, no dial unless asked.
    var quick = false
    /// Seeds the station, the listeners' draws and verdicts, and the references.
    var seed: UInt64 = 25
    /// With `--seeds`, every listener runs once per seed and the targets that one seed
    /// judges by luck are judged on the mean (the dial turns at the first seed only).
    var seeds: [UInt64] = []
    /// The listener models to run (all by default; each where it applies).
    var listeners = Listener.Kind.allCases
    /// The libraries.
    var libraries = TasteLibraries.Name.allCases
    /// Songs per run.
    var songs: Int?
    /// The dial's values, sent as `variety=` for the artists listener on the first library.
    var variety: [Double]?
    /// The binary and the work folder (from the benchmark's defaults).
    var mhz: String
    /// Where libraries are made (and kept) and stations keep their data.
    var work: URL

    /// Songs per run: 200, or 120 with `--quick`.
    var songCount: Int { songs ?? (quick ? 120 : 200) }
    /// Shuffle runs averaged per listener.
    var shuffleRuns: Int { quick ? 5 : 20 }
    /// The dial: as given; by default 0, 0.5, 1 on a full run, none on a quick one.
    var dial: [Double] { variety ?? (quick ? [] : [0, 0.5, 1]) }

    static let usage = """
        usage: mhz-bench taste [--quick] [--seed N | --seeds N,N…] [--listener NAME…] [--library generated|sound|wesnoth|all]
                               [--songs N] [--variety 0,0.5,1] [--mhz PATH] [--work DIR]
          listeners: \(Listener.Kind.allCases.map(\.rawValue).joined(separator: " "))
        """

    /// Parses the arguments after `taste`.
    init(_ arguments: [String], defaults: BenchOptions) throws(BenchUsage) {
        mhz = defaults.mhz
        work = defaults.work
        var iterator = arguments.makeIterator()
        var chosen: [Listener.Kind]?
        func value(_ option: String) throws(BenchUsage) -> String {
            guard let value = iterator.next() else { throw BenchUsage("\(option) needs a value\n\(Self.usage)") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw BenchUsage("--seed needs a whole number, not \(text)") }
                self.seed = seed
            case "--seeds":
                let text = try value(argument)
                let values = text.split(separator: ",").compactMap { UInt64($0) }
                guard values.count >= 2, values.count == text.split(separator: ",").count else {
                    throw BenchUsage("--seeds needs two or more whole numbers with commas between them, not \(text)")
                }
                seeds = values
                seed = values[0]
            case "--listener":
                // One or more names, separate or joined by commas.
                let text = try value(argument)
                var kinds: [Listener.Kind] = []
                for name in text.split(separator: ",") {
                    guard let kind = Listener.Kind(rawValue: String(name)) else {
                        throw BenchUsage("no listener \(name)\n\(Self.usage)")
                    }
                    kinds.append(kind)
                }
                chosen = (chosen ?? []) + kinds
            case "--library":
                let text = try value(argument)
                if text == "all" {
                    libraries = TasteLibraries.Name.allCases
                } else {
                    guard let name = TasteLibraries.Name(rawValue: text) else { throw BenchUsage("no library \(text)\n\(Self.usage)") }
                    libraries = [name]
                }
            case "--songs":
                let text = try value(argument)
                guard let count = Int(text), count >= 20 else { throw BenchUsage("--songs needs a number ≥ 20, not \(text)") }
                songs = count
            case "--variety":
                let text = try value(argument)
                let values = text.split(separator: ",").compactMap { Double($0) }
                guard !values.isEmpty, values.count == text.split(separator: ",").count, values.allSatisfy({ (0...1).contains($0) })
                else { throw BenchUsage("--variety needs numbers from 0 to 1 with commas between them, not \(text)") }
                variety = values
            case "--mhz": mhz = try value(argument)
            case "--work": work = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "-h", "--help": throw BenchUsage(Self.usage, help: true)
            default:
                // Further listener names after --listener.
                if let kind = Listener.Kind(rawValue: argument), chosen != nil {
                    chosen?.append(kind)
                } else {
                    throw BenchUsage("unknown option \(argument)\n\(Self.usage)")
                }
            }
        }
        if let chosen { listeners = chosen }
    }
}
