// Its own file, as a dependency of the command parser: script/fuzz compiles
// RadioCommand.swift, CommandWord.swift, DefaultKey.swift and this alone into the parser's
// fuzz target.

/// What the listener can do to one download.
public enum DownloadAction: String, Sendable, Equatable, CaseIterable {
    /// Stop it, keeping its bytes.
    case pause
    /// Continue a paused one.
    case resume
    /// Stop it and delete its partial file.
    case cancel
    /// Start a failed or canceled one again.
    case retry
}
