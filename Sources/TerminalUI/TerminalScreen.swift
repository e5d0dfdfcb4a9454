import CNcurses
import Glibc

/// The one owner of ncurses. Everything here runs on the UI thread — ncurses is not
/// thread-safe — except `TerminalGuard.restore`, which is atomic-guarded.
///
/// It draws whole `Frame`s (each line exactly as wide as the screen, so no stale text
/// survives and nothing wraps) and reads keys with `get_wch`, which delivers wide
/// characters whole and function keys decoded, where `getch` would split `é` or `中`
/// into bytes.
final class TerminalScreen {
    /// What a read produced.
    enum Input: Equatable {
        /// A key the UI knows.
        case key(Key)
        /// The terminal changed size; `size` is already updated.
        case resize
        /// A key with no meaning here (mouse, unknown function key, stray control code).
        case ignored
    }

    /// Rows and columns, as ncurses last reported them.
    private(set) var size = (rows: 0, columns: 0)
    private var screen: OpaquePointer?
    private var output: UnsafeMutablePointer<FILE>?
    private var input: UnsafeMutablePointer<FILE>?
    private var palette = CoverPalette()

    /// Takes over the terminal. Returns false when there is no usable terminal (not a
    /// tty, unknown `TERM`); the terminal is then untouched.
    ///
    /// Locale first: ncursesw needs `setlocale(LC_ALL, "")` to emit UTF-8, and libmpv
    /// refuses to start (`mpv_create` returns NULL) unless `LC_NUMERIC` is "C" — so that is
    /// reset immediately after. When the environment names no UTF-8 locale (`LANG=C`,
    /// common over ssh and in containers) `LC_CTYPE` becomes C.UTF-8: channel and song
    /// names are mostly CJK, and a terminal that cannot show them garbles them either way.
    func start() -> Bool {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return false }
        setlocale(LC_ALL, "")
        setlocale(LC_NUMERIC, "C")
        if !Self.localeIsUTF8() { setlocale(LC_CTYPE, "C.UTF-8") }

        TerminalGuard.willStartCurses()
        // newterm rather than initscr: initscr exits the process when TERM is unusable.
        output = fdopen(dup(STDOUT_FILENO), "w")
        input = fdopen(dup(STDIN_FILENO), "r")
        if let output, let input { screen = newterm(nil, output, input) }
        guard screen != nil else {
            closeStreams()
            TerminalGuard.uninstallHandlers()
            return false
        }
        TerminalGuard.didStartCurses()
        cbreak()
        noecho()
        nonl()
        keypad(cnc_stdscr(), true)
        curs_set(0)
        // Esc alone is a key here (close the list); ncurses waits this long to tell it
        // from the start of an arrow key's escape sequence. 1000 ms by default.
        set_escdelay(25)
        querySize()
        return true
    }

    /// Copies `frame` to the terminal, one whole line per row, draws `cover`'s art over
    /// its area (centred in it), and updates the terminal.
    func draw(_ frame: Frame, cover: (art: CoverArt, area: CoverArea)? = nil) {
        for (row, line) in frame.lines.enumerated() where row < size.rows {
            attrset(Int32(truncatingIfNeeded: Self.attributes(frame.styles[row])))
            // The bottom-right cell makes ncurses return ERR (it cannot move the cursor
            // past it) but the text is drawn, so the result is ignored.
            _ = mvaddstr(Int32(row), 0, line)
        }
        if let cover { draw(cover.art, in: cover.area) }
        attrset(Int32(truncatingIfNeeded: cnc_a_normal()))
        refresh()
    }

    /// Draws the cells of `art` that fit in `area` and on the screen, one at a time with
    /// their own colour pair. Every row of the frame was drawn whole just before, so
    /// nothing of an older cover survives around a smaller one.
    private func draw(_ art: CoverArt, in area: CoverArea) {
        let top = area.row + max(0, (area.rows - art.height) / 2)
        let left = area.column + max(0, (area.columns - art.width) / 2)
        for (index, cells) in art.rows.prefix(area.rows).enumerated() where top + index < size.rows {
            for (offset, cell) in cells.prefix(area.columns).enumerated() where left + offset < size.columns {
                let pair = palette.pair(foreground: cell.foreground, background: cell.background)
                _ = cnc_attr_set_pair(cell.reverse ? cnc_a_reverse() : cnc_a_normal(), pair)
                _ = mvaddstr(Int32(top + index), Int32(left + offset), String(cell.character))
            }
        }
    }

    /// Clears the screen before the next draw (after a resize, old cells may linger).
    func clear() {
        erase()
    }

    /// Waits up to `milliseconds` for a key. Nil when none came.
    func read(timeoutMilliseconds milliseconds: Int32) -> Input? {
        timeout(milliseconds)
        var code: wint_t = 0
        switch get_wch(&code) {
        case KEY_CODE_YES:
            if Int32(code) == KEY_RESIZE {
                querySize()
                return .resize
            }
            return Self.functionKey(Int32(code)).map(Input.key) ?? .ignored
        case OK:
            return Key(code: UInt32(code)).map(Input.key) ?? .ignored
        default:
            return nil
        }
    }

    /// Leaves curses mode and frees the screen. Idempotent.
    func restore() {
        TerminalGuard.restore()
        if let screen {
            delscreen(screen)
            self.screen = nil
            closeStreams()
        }
        TerminalGuard.uninstallHandlers()
    }

    // MARK: - Helpers

    private func querySize() {
        size = (Int(cnc_maxy(cnc_stdscr())), Int(cnc_maxx(cnc_stdscr())))
    }

    private func closeStreams() {
        if let output { fclose(output) }
        if let input { fclose(input) }
        output = nil
        input = nil
    }

    private static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).lowercased()
        return name == "utf-8" || name == "utf8"
    }

    private static func attributes(_ style: Frame.Style) -> attr_t {
        switch style {
        case .plain: cnc_a_normal()
        case .header, .selected: cnc_a_reverse()
        case .title, .bar, .alert: cnc_a_bold()
        case .dim: cnc_a_dim()
        }
    }

    /// Maps ncurses' decoded function keys (`KEY_CODE_YES`) to `Key`.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case cnc_key_f(1)...cnc_key_f(24): return .function(Int(code - cnc_key_f(0)))
        default: return nil
        }
    }
}
