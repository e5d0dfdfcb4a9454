import Foundation

/// A captcha image drawn as plain text rows for the terminal UI's login dialog: chafa's
/// symbol output without colours, so ncurses can draw it like any other line.
enum CaptchaText {
    /// chafa's arguments for `columns` × `rows` cells of plain symbols: no colour codes
    /// (`--colors none`) and no terminal queries or cursor codes (`--polite on`).
    static func arguments(for image: URL, columns: Int, rows: Int) -> [String] {
        ["--format", "symbols", "--colors", "none", "--polite", "on", "--size", "\(columns)x\(rows)", image.path]
    }

    /// The rows chafa draws for `image`, or nil when chafa is missing or failed.
    static func rows(of image: URL, columns: Int, rows: Int) async -> [String]? {
        guard let chafa = CaptchaViewer.chafa() else { return nil }
        let arguments = arguments(for: image, columns: columns, rows: rows)
        return await onThread { () -> [String]? in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chafa)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            let lines = Self.lines(String(decoding: data, as: UTF8.self))
            return lines.isEmpty ? nil : lines
        }
    }

    /// Splits output into rows with escape sequences removed (whatever chafa still emits,
    /// such as cursor visibility), and without blank rows at the end.
    static func lines(_ text: String) -> [String] {
        var rows = stripEscapes(text).replacingOccurrences(of: "\r", with: "")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let last = rows.last, last.trimmingCharacters(in: .whitespaces).isEmpty { rows.removeLast() }
        return rows
    }

    /// Removes CSI (`ESC [ … final`) and OSC (`ESC ] … BEL` or `ESC \`) sequences and lone
    /// escapes.
    static func stripEscapes(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else { result.unicodeScalars.append(scalar); continue }
            switch scalars.next() {
            case "[":
                while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
            case "]":
                var previous: Unicode.Scalar?
                while let next = scalars.next(), next != "\u{07}", !(previous == "\u{1B}" && next == "\\") {
                    previous = next
                }
            default:
                break
            }
        }
        return result
    }
}
