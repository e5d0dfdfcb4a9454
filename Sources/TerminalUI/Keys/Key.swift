/// One key press, independent of how the terminal encoded it. Key tables, config
/// overrides and the channel list's type-to-filter all speak this type; only
/// `TerminalScreen` knows ncurses' key codes.
public enum Key: Hashable, Sendable {
    /// A printable character, including the space bar (`" "`) and wide characters
    /// typed through an input method (`"中"`). Case matters: `n` is not `N`.
    case character(Character)
    /// Ctrl held with a letter, stored lowercase (`.control("l")` is Ctrl-L).
    case control(Character)
    /// Return or keypad Enter.
    case enter
    /// Esc pressed alone.
    case escape
    /// Tab.
    case tab
    /// Backspace (either the ^H or the DEL encoding).
    case backspace
    /// Delete (forward).
    case delete
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// A function key, F1 to F24.
    case function(Int)

    /// Names accepted in config files for keys that are not one printable character,
    /// mapped to the key. Matching ignores case.
    private static let named: [String: Key] = [
        "space": .character(" "), "spc": .character(" "),
        "enter": .enter, "return": .enter, "ret": .enter,
        "esc": .escape, "escape": .escape,
        "tab": .tab,
        "backspace": .backspace, "bs": .backspace,
        "delete": .delete, "del": .delete,
        "up": .up, "down": .down, "left": .left, "right": .right,
        "home": .home, "end": .end,
        "pageup": .pageUp, "pgup": .pageUp, "page-up": .pageUp,
        "pagedown": .pageDown, "pgdn": .pageDown, "page-down": .pageDown,
    ]

    /// Parses a key as written in `config.toml`: one printable character (`"n"`, `"+"`,
    /// `"?"`), a name (`"space"`, `"enter"`, `"esc"`, `"left"`, `"pgdn"`), a function
    /// key (`"F5"`), or a control chord (`"ctrl+l"`, `"ctrl-l"`, `"C-l"`, `"^L"`).
    /// Returns nil for anything else, so the caller can say which entry was wrong.
    public static func parse(_ text: String) -> Key? {
        if text.count == 1, let character = text.first {
            let isControl = character.unicodeScalars.contains(where: DisplayWidth.isControl)
            return isControl ? nil : .character(character)
        }
        let lower = text.lowercased()
        if let key = named[lower] { return key }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number) {
            return .function(number)
        }
        for prefix in ["ctrl+", "ctrl-", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            if rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter {
                return .control(letter)
            }
        }
        return nil
    }

    /// Interprets a character code as ncurses' `get_wch` delivers it (status `OK`):
    /// line endings, Esc, Tab, the two backspace encodings and Ctrl-letters become their
    /// keys; other control codes are dropped (nil).
    public init?(code: UInt32) {
        switch code {
        case 10, 13: self = .enter
        case 27: self = .escape
        case 9: self = .tab
        case 8, 127: self = .backspace
        case 1...26: self = .control(Character(Unicode.Scalar(UInt8(code) + 0x60)))
        default:
            guard let scalar = Unicode.Scalar(code), !DisplayWidth.isControl(scalar) else { return nil }
            self = .character(Character(scalar))
        }
    }

    /// The canonical spelling for config files; `Key.parse(key.name) == key`.
    public var name: String {
        switch self {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .control(let letter): "ctrl+\(letter)"
        case .enter: "enter"
        case .escape: "esc"
        case .tab: "tab"
        case .backspace: "backspace"
        case .delete: "delete"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .function(let number): "F\(number)"
        }
    }

    /// How the key is shown in the hint line and the help screen: arrows as arrows,
    /// Ctrl chords as `^L`, everything else as its config name.
    public var label: String {
        switch self {
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .control(let letter): "^" + letter.uppercased()
        default: name
        }
    }
}
