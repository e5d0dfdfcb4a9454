// Its own file, as the command parser's one dependency: script/fuzz compiles
// RadioCommand.swift, CommandWord.swift and this alone into the parser's fuzz target.

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
