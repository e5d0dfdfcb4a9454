import Radio

/// Who read a command line that is not one, which decides the commands its words offer
/// instead: every word of ``CommandWord/table`` can be bound to a key, while a playing
/// mhz reading lines answers the interactive-only ones as not available, and may read
/// words of its own beside the table's.
public enum CommandAsker: Sendable, Equatable {
    /// A `[keys]` binding (the config loader puts the file, line and key in front).
    case keys
    /// A playing mhz reading command lines: headless stdin, the control socket. `also` are
    /// the reader's own words, offered after the table's (the control socket's `follow`).
    case reader(also: [String])
}

extension ErrorText {
    /// What is wrong with a command line, in a few words (an example when it helps): the
    /// start of every line ``describe(_:for:)`` makes.
    public static func describe(_ error: CommandParseError) -> String {
        switch error {
        case .empty: "it is empty"
        case .unknownWord(let word): "there is no command \(quoted(word))"
        case .missingArgument(let word): "\(quoted(word)) needs an argument, e.g. \(example(word))"
        case .unexpectedArgument(let word, let argument):
            "\(quoted(word)) does not take \(quoted(argument)), e.g. \(example(word))"
        case .invalidArgument(let word, let argument):
            "\(quoted(argument)) is not valid for \(quoted(word)), e.g. \(example(word))"
        case .tooLong(let limit): "it is longer than \(limit) bytes, so it was skipped"
        }
    }

    /// One line for a command line that is not one, read by `asker`: what is wrong, with an
    /// example of the word when the word is a command, else the commands `asker` takes.
    public static func describe(_ error: CommandParseError, for asker: CommandAsker) -> String {
        switch error {
        case .empty, .unknownWord: "\(describe(error)) — commands are: \(commands(for: asker))"
        case .missingArgument, .unexpectedArgument, .invalidArgument, .tooLong: describe(error)
        }
    }

    /// The usages of the commands `asker` takes, in the table's order.
    private static func commands(for asker: CommandAsker) -> String {
        let usages = switch asker {
        case .keys: CommandWord.table.map(\.usage)
        case .reader(let also): CommandWord.table.filter { !$0.interactiveOnly }.map(\.usage) + also
        }
        return usages.joined(separator: ", ")
    }

    private static func example(_ word: String) -> String {
        CommandWord(parsing: word)?.example ?? word
    }
}
