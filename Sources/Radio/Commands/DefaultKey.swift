/// A key the terminal UI binds to a command word unless `config.toml [keys]` says
/// otherwise: part of the word's row in ``CommandWord/table``, so the word, what it does
/// and the keys that send it are written once.
///
/// Keys are written as `[keys]` writes them (`"n"`, `"space"`, `"right"`); the terminal
/// UI reads them with its key parser, and a test holds every one to it.
public struct DefaultKey: Sendable, Equatable {
    /// The name `[keys]` and the help screen know the key by: the word itself for a key
    /// that sends the word's command, a name of its own for a step (`seek-forward`).
    public let name: String
    /// The keys, in the order the help screen shows them.
    public let keys: [String]
    /// For a word whose argument is a quantity (seek's seconds, volume's points): how far
    /// one press moves it from where it is, negative for back or down. Nil for a key that
    /// sends the word's own command.
    public let step: Int?
    /// The help screen's line for the key.
    public let help: String

    /// A key named `name`; a step key of `step`.
    public init(_ name: String, _ keys: [String], step: Int? = nil, help: String) {
        self.name = name
        self.keys = keys
        self.step = step
        self.help = help
    }
}
