// Its own file, as a dependency of the command parser (script/fuzz compiles it with
// RadioCommand.swift and CommandWord.swift).

/// What the listener can do to a song of the history that is no longer playing (the
/// terminal UI's history view, `past <action> <sid>` on a command line).
public enum PastSongAction: String, Sendable, Equatable, CaseIterable {
    /// Give it a red heart (report `r` about its sid).
    case like
    /// Take the red heart away (report `u`).
    case unlike
    /// Never play it again (report `b`).
    case trash
    /// Download it for offline listening.
    case download
}
