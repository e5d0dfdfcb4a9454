/// The login dialog as a pure function of a ``LoginForm``: a title saying where the login
/// goes, one row per field, the captcha inline (drawn as text, or the path of its saved
/// image), a status line (the last failure in words, or what the dialog waits for) and a
/// hint line.
///
/// The password is drawn as one `•` per character typed and nothing else: no frame of this
/// view contains a character of it. The focused field ends in a `▏` cursor and is bold;
/// a value too long for its row shows its end, where the cursor is.
public enum LoginDialogView {
    /// What each character of the password is drawn as.
    public static let bullet: Character = "•"
    /// The cursor drawn after the focused field's text.
    public static let cursor = "▏"

    /// The dialog as plain lines, exactly `height` × `width`.
    public static func render(_ form: LoginForm, width: Int, height: Int) -> [String] {
        frame(form, width: width, height: height).lines
    }

    /// The dialog with a style per line.
    public static func frame(_ form: LoginForm, width: Int, height: Int) -> Frame {
        let margin = Frame.margin(width: width)
        let indent = String(repeating: " ", count: margin)
        let inner = max(0, width - 2 * margin)
        let labelColumn = min(inner / 2, form.fields.map { DisplayWidth.width(of: label($0)) }.max() ?? 0) + 2

        func fieldLine(_ field: LoginForm.Field) -> FrameLine {
            let focused = field == form.focus && form.phase != .submitting
            let value = fitted(shown(field, in: form) + (focused ? cursor : ""), to: inner - labelColumn)
            return FrameLine(text: indent + DisplayWidth.pad(label(field), to: labelColumn) + value,
                             style: focused ? .title : .plain, priority: 10)
        }

        var top = [
            FrameLine(text: " Log in to \(form.destination)", style: .header, priority: 3),
            .spacer,
            fieldLine(.account),
            fieldLine(.password),
        ]
        if form.needsCaptcha {
            top.append(.spacer)
            top += captchaLines(form, indent: indent, columns: inner)
            top.append(fieldLine(.captcha))
        }

        var bottom = DisplayWidth.wrap(statusText(form), to: inner, maxLines: 2).enumerated().map { index, line in
            FrameLine(text: indent + line, style: form.problem == nil ? .dim : .alert, priority: index == 0 ? 9 : 6)
        }
        if bottom.isEmpty { bottom = [FrameLine(text: "", priority: 1)] }
        bottom.append(FrameLine(text: indent + hintLine(columns: inner), style: .dim, priority: 4))
        return Frame.layout(top: top, bottom: bottom, width: width, height: height)
    }

    /// What the status line says: the last failure, else what the dialog waits for.
    public static func statusText(_ form: LoginForm) -> String {
        if let problem = form.problem { return ErrorText.describe(login: problem) }
        switch form.phase {
        case .submitting: return "Logging in…"
        case .fetchingCaptcha: return "Fetching the captcha…"
        case .editing: return ""
        }
    }

    /// What the now-playing status line says after a login succeeded.
    public static func successText(destination: String, name: String) -> String {
        "Logged in to \(destination) as \(ErrorText.oneLine(name))."
    }

    /// The field's name on screen.
    public static func label(_ field: LoginForm.Field) -> String {
        switch field {
        case .account: "E-mail or name"
        case .password: "Password"
        case .captcha: "Captcha"
        }
    }

    /// The keys of the dialog, least important dropped first when the line is narrow.
    static func hintLine(columns: Int) -> String {
        let items = [(text: "Enter log in", rank: 0), (text: "Tab next field", rank: 2), (text: "Esc cancel", rank: 1)]
        var kept = items
        while !kept.isEmpty, DisplayWidth.width(of: kept.map(\.text).joined(separator: "  ")) > columns {
            let least = kept.indices.max { kept[$0].rank < kept[$1].rank }!
            kept.remove(at: least)
        }
        return kept.map(\.text).joined(separator: "  ")
    }

    // MARK: - Pieces

    /// A field's text as drawn: the password as bullets, the rest as typed.
    private static func shown(_ field: LoginForm.Field, in form: LoginForm) -> String {
        field == .password ? String(repeating: bullet, count: form.password.count) : form.text(of: field)
    }

    /// `text` in at most `columns` columns, keeping its end (where the cursor is) and
    /// marking what was cut at the start with `…`.
    private static func fitted(_ text: String, to columns: Int) -> String {
        let clean = DisplayWidth.sanitize(text)
        guard columns > 0 else { return "" }
        guard DisplayWidth.width(of: clean) > columns else { return clean }
        var kept = ""
        var used = 1
        for character in clean.reversed() {
            let width = DisplayWidth.width(of: character)
            if used + width > columns { break }
            kept.insert(character, at: kept.startIndex)
            used += width
        }
        return DisplayWidth.ellipsis + kept
    }

    /// The captcha's rows: the picture, the saved file's path, or that it is on its way.
    private static func captchaLines(_ form: LoginForm, indent: String, columns: Int) -> [FrameLine] {
        switch form.captcha {
        case .picture(let rows):
            return rows.map { FrameLine(text: indent + $0, priority: 5) }
        case .file(let path):
            return DisplayWidth.wrap("Captcha image saved to \(path) — open it to read the letters.",
                                     to: columns).map { FrameLine(text: indent + $0, priority: 7) }
        case nil:
            return []
        }
    }
}
