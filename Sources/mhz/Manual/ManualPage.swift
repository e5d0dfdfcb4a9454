import Foundation
import TerminalUI

/// The manual page as `script/install` installs it: the page swift-argument-parser's
/// `generate-manual` makes from the command line's definitions (name, synopsis, every
/// option and subcommand), with the sections a radio's manual needs that no option
/// definition holds — KEYS, CONFIGURATION, ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES, as
/// pianobar's manual has them — made here from the key table, the configuration's reference
/// and the paths in effect (``ManualSections``), so none can go stale.
///
/// `mhz --complete-manual < generated.1 > mhz.1` runs it; the option is read before the
/// command line is parsed, so it is in no help, completion or manual.
enum ManualPage {
    /// The option that runs ``complete(_:keymap:)`` on stdin.
    static let option = "--complete-manual"

    /// The generated page with mhz's sections in place of its generic EXIT STATUS (whose
    /// `.Ex -std` says only "0 on success, >0 on error"), else before its AUTHORS or at its
    /// end.
    static func complete(_ generated: String, keymap: Keymap = .standard) -> String {
        var lines = generated.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let added = ManualSections.all(keymap: keymap)
        let exitStatus = lines.firstIndex { isHeader($0, "EXIT STATUS") }
        let authors = lines.firstIndex { isHeader($0, "AUTHORS") }
        if let start = exitStatus {
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.endIndex
            lines.replaceSubrange(start..<end, with: added)
        } else if let authors {
            lines.insert(contentsOf: added, at: authors)
        } else {
            lines += added
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `line` opens the section `title` (`.Sh "EXIT STATUS"` or `.Sh EXIT STATUS`).
    static func isHeader(_ line: String, _ title: String) -> Bool {
        line == ".Sh \(title)" || line == ".Sh \"\(title)\""
    }

    /// Runs the option: the generated page on stdin, the completed one on stdout.
    static func run() -> Never {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        FileHandle.standardOutput.write(Data(complete(String(decoding: input, as: UTF8.self)).utf8))
        exit(0)
    }

    // MARK: - mdoc

    /// `.Sh TITLE`, quoted when it has more than one word, as generate-manual writes it.
    static func section(_ title: String) -> String {
        ".Sh " + (title.contains(" ") ? "\"\(title)\"" : title)
    }

    /// A macro argument: quoted when it holds a blank, so it stays one argument; quoted
    /// or not, never read as a macro name or as punctuation (`?`, `|`) that mdoc moves.
    static func argument(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "\"", with: "\\(dq")
        return text.contains(" ") || text.isEmpty ? "\"\(escaped)\"" : "\\&" + escaped
    }

    /// A text line: a backslash as `\e`, and a line that would begin with `.` or `'` (a
    /// macro or control line) begun with a zero-width `\&`.
    static func text(_ line: String) -> String {
        let escaped = line.replacingOccurrences(of: "\\", with: "\\e")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// A tagged list of `(tag macro line, body lines)`.
    static func list(_ items: [(tag: String, body: [String])]) -> [String] {
        [".Bl -tag -width Ds"] + items.flatMap { [".It " + $0.tag] + $0.body } + [".El"]
    }
}
