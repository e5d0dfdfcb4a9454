import Foundation

/// A song's cover drawn as character cells, ready for the now-playing screen: rows of
/// cells, each a character with colours from the terminal's 256-colour palette.
///
/// Kept as cells rather than as escape-laden text because ncurses must own every byte
/// sent to the terminal: the screen turns each cell's colours into a colour pair of its
/// own, or drops them where the terminal has no 256 colours.
public struct CoverArt: Sendable, Equatable {
    /// One character cell.
    public struct Cell: Sendable, Equatable {
        /// What is drawn; always one column wide.
        public var character: Character
        /// Palette index of the character's colour; nil for the terminal's default.
        public var foreground: UInt8?
        /// Palette index of the cell's background; nil for the terminal's default.
        public var background: UInt8?
        /// Foreground and background trade places when drawn. Only kept where one of them
        /// is the terminal's default, whose colour cannot be named to swap it by hand.
        public var reverse: Bool

        /// A cell; `reverse` is false unless asked for.
        public init(_ character: Character, foreground: UInt8? = nil, background: UInt8? = nil,
                    reverse: Bool = false) {
            self.character = character
            self.foreground = foreground
            self.background = background
            self.reverse = reverse
        }
    }

    /// The rows, top to bottom; rows may differ in length (a short row leaves the rest
    /// of its line to the screen's background).
    public var rows: [[Cell]]

    /// Art from rows of cells.
    public init(rows: [[Cell]]) {
        self.rows = rows
    }

    /// Columns of the widest row.
    public var width: Int { rows.map(\.count).max() ?? 0 }

    /// Number of rows.
    public var height: Int { rows.count }
}

/// Draws the cover file as art of at most `columns` × `rows` cells, or nil when it
/// cannot. `TerminalApp` calls it off the UI thread, since drawing an image takes tens
/// of milliseconds; it may block.
public typealias CoverRenderer = @Sendable (_ file: URL, _ columns: Int, _ rows: Int) -> CoverArt?
