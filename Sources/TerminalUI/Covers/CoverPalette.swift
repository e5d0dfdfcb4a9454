import CNcurses

/// The colour pairs a cover's cells are drawn with, owned by `TerminalScreen` and used
/// on the UI thread only, like all of ncurses.
///
/// Colour starts the first time a cover is drawn, not with the screen: the rest of the UI
/// uses attributes alone and should look exactly as before on terminals where colour
/// changes anything. A cover needs the 256-colour palette its art names; with fewer
/// colours (or none) the cells are drawn without colour rather than in wrong ones.
/// Pairs come from ncurses' `alloc_pair`, which hands back an existing pair for a known
/// (foreground, background) and recycles the least recently allocated when all are used,
/// so covers can follow each other forever.
struct CoverPalette {
    private enum Support { case unknown, none, colors(defaults: Bool) }

    private var support = Support.unknown

    /// The pair for a cell's colours (nil: the terminal's default); 0, the default pair,
    /// when the terminal cannot show them.
    mutating func pair(foreground: UInt8?, background: UInt8?) -> Int32 {
        guard case .colors(let defaults) = prepared() else { return 0 }
        if foreground == nil && background == nil { return 0 }
        // Without use_default_colors, -1 is no colour; white on black is the usual default.
        let fallback: (Int32, Int32) = defaults ? (-1, -1) : (7, 0)
        let pair = alloc_pair(foreground.map(Int32.init) ?? fallback.0, background.map(Int32.init) ?? fallback.1)
        return max(0, pair)
    }

    private mutating func prepared() -> Support {
        if case .unknown = support {
            if has_colors(), start_color() == OK, cnc_colors() >= 256 {
                support = .colors(defaults: use_default_colors() == OK)
            } else {
                support = .none
            }
        }
        return support
    }
}
