import Foundation

/// The lines about a music folder without songs: the error for a folder the listener named
/// (`--library`, the config's `library`), and the notice when the default `~/Music` held
/// none and the demo library plays instead.
enum LibraryText {
    /// `.flac, .m4a, … or .webm`: what the station looked for.
    static func looked(for extensions: [String]) -> String {
        let dotted = extensions.map { "." + $0 }
        guard let last = dotted.last, dotted.count > 1 else { return dotted.joined() }
        return dotted.dropLast().joined(separator: ", ") + " or " + last
    }

    /// A named folder without songs.
    static func noSongs(path: String, extensions: [String]) -> String {
        "no songs in \(path): looked for files ending in \(looked(for: extensions)); "
            + "check --library (or the library setting)"
    }

    /// The default folder had no songs, so the demo library is served (`mhz serve`) or
    /// played (`mhz`).
    static func fellBack(from folder: URL, extensions: [String], serving: Bool) -> String {
        "mhz: no songs in \(folder.path) (looked for files ending in \(looked(for: extensions))): "
            + "\(serving ? "serving" : "playing") the demo library; give --library DIR for your own music\n"
    }
}
