/// Where the now-playing screen keeps the cover: a block of cells left of the song's
/// lines, below the header, clear of the status and hint lines at the bottom.
///
/// Only a terminal of at least ``minimumColumns`` × ``minimumRows`` gets one: below that
/// the song's lines need every column, and a cover of fewer than 8 rows is a smudge.
struct CoverArea: Sendable, Equatable {
    /// Narrowest terminal that shows a cover: room for a 16-column cover beside a title
    /// and a progress bar still worth reading.
    static let minimumColumns = 70
    /// Shortest terminal that shows a cover: the header, an 8-row cover and the bottom
    /// lines, without dropping any of the song's lines.
    static let minimumRows = 14
    /// Tallest cover; beyond it a cover takes the screen from the text for little gain.
    static let maximumRows = 12
    /// Columns between the cover and the song's lines.
    static let gap = 3

    /// Top row.
    let row: Int
    /// Leftmost column.
    let column: Int
    /// Width in cells: twice the rows, as a terminal cell is about twice as tall as
    /// wide, so a square cover stays square.
    let columns: Int
    /// Height in cells.
    let rows: Int

    /// Where the song's lines start when the cover is shown.
    var textColumn: Int { column + columns + Self.gap }

    /// The area on a `width` × `height` now-playing screen, or nil when the terminal is
    /// too small. Rows 0 and 1 are the header and its spacer; the last four are a spacer,
    /// the two status lines and the hint line.
    static func fitting(width: Int, height: Int) -> CoverArea? {
        guard width >= minimumColumns, height >= minimumRows else { return nil }
        let rows = min(maximumRows, height - 6)
        return CoverArea(row: 2, column: 2, columns: 2 * rows, rows: rows)
    }
}
