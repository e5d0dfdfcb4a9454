/// Reading art from text coloured with SGR escape codes, as image-to-text tools write it
/// for a terminal. The parsing lives with `CoverArt` so every front end that draws covers
/// (the app, the test harness) reads the codes the same way; whoever runs the tool
/// decides which tool that is.
extension CoverArt {
    /// Parses `text`: one row per line; `ESC[…m` sets colours for the cells after it
    /// (256-colour `38;5;N`/`48;5;N`, the 16 basic and bright colours, truecolor
    /// `38;2;R;G;B` mapped to the nearest palette entry, `39`/`49` defaults, `7`/`27`
    /// reverse, `0` reset); every other escape sequence and control character is dropped.
    /// Blank rows at the end are left out.
    ///
    /// Cells are normalised so equal-looking cells compare equal, and so the screen
    /// needs as few colour pairs as possible: a reversed cell with both colours known is
    /// stored with them swapped, and a space keeps only its background.
    public init(sgr text: String) {
        var parser = SGRParser()
        for scalar in text.unicodeScalars { parser.consume(scalar) }
        self.init(rows: parser.finish())
    }
}

/// The state of a parse: the colours in effect and the cells so far.
private struct SGRParser {
    private enum Mode { case text, escape, csi, osc, oscEscape }

    private var mode = Mode.text
    private var parameters = ""
    private var foreground: UInt8?
    private var background: UInt8?
    private var reverse = false
    private var row: [CoverArt.Cell] = []
    private var rows: [[CoverArt.Cell]] = []

    mutating func consume(_ scalar: Unicode.Scalar) {
        switch mode {
        case .text: text(scalar)
        case .escape:
            switch scalar {
            case "[": mode = .csi; parameters = ""
            case "]": mode = .osc
            default: mode = .text
            }
        case .csi:
            guard (0x40...0x7E).contains(scalar.value) else { parameters.unicodeScalars.append(scalar); return }
            if scalar == "m" { select(parameters) }
            mode = .text
        case .osc:
            if scalar == "\u{07}" { mode = .text } else if scalar == "\u{1B}" { mode = .oscEscape }
        case .oscEscape:
            mode = scalar == "\\" ? .text : .osc
        }
    }

    mutating func finish() -> [[CoverArt.Cell]] {
        if !row.isEmpty { rows.append(row) }
        while let last = rows.last, last.isEmpty { rows.removeLast() }
        return rows
    }

    private mutating func text(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "\u{1B}": mode = .escape
        case "\n": rows.append(row); row = []
        case _ where DisplayWidth.isControl(scalar): break
        default:
            switch DisplayWidth.width(of: scalar) {
            case 0:
                // A combining mark belongs to the cell before it.
                if !row.isEmpty { row[row.count - 1].character = Character(String(row[row.count - 1].character) + String(scalar)) }
            case 1: row.append(cell(Character(scalar)))
            default:
                // A wide symbol would push the rest of the row out of its area.
                row.append(cell(" "))
            }
        }
    }

    private func cell(_ character: Character) -> CoverArt.Cell {
        var (foreground, background, reverse) = (self.foreground, self.background, self.reverse)
        if reverse && (character == " " || (foreground != nil && background != nil)) {
            (foreground, background, reverse) = (background, foreground, false)
        }
        if character == " " && !reverse { foreground = nil }
        return CoverArt.Cell(character, foreground: foreground, background: background, reverse: reverse)
    }

    /// Applies one SGR sequence's parameters (empty means reset).
    private mutating func select(_ text: String) {
        let codes = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var index = 0
        while index < codes.count {
            let code = codes[index]
            index += 1
            switch code {
            case 0: (foreground, background, reverse) = (nil, nil, false)
            case 7: reverse = true
            case 27: reverse = false
            case 30...37: foreground = UInt8(code - 30)
            case 90...97: foreground = UInt8(code - 90 + 8)
            case 40...47: background = UInt8(code - 40)
            case 100...107: background = UInt8(code - 100 + 8)
            case 39: foreground = nil
            case 49: background = nil
            case 38, 48:
                let (color, used) = Self.extendedColor(codes[index...])
                index += used
                if let color { if code == 38 { foreground = color } else { background = color } }
            default: break
            }
        }
    }

    /// The colour of `5;N` or `2;R;G;B` at the start of `codes`, and how many codes it took.
    private static func extendedColor(_ codes: ArraySlice<Int>) -> (UInt8?, Int) {
        let values = Array(codes)
        switch values.first {
        case 5 where values.count >= 2:
            return ((0...255).contains(values[1]) ? UInt8(values[1]) : nil, 2)
        case 2 where values.count >= 4:
            return (nearestPaletteIndex(red: values[1], green: values[2], blue: values[3]), 4)
        default:
            return (nil, values.count)
        }
    }

    /// The 256-colour palette entry closest to an RGB colour: the nearer of the 6×6×6
    /// cube's and the grey ramp's candidates.
    static func nearestPaletteIndex(red: Int, green: Int, blue: Int) -> UInt8 {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: Int) -> Int {
            levels.indices.min { abs(levels[$0] - value) < abs(levels[$1] - value) } ?? 0
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cube = (16 + 36 * r + 6 * g + b, levels[r], levels[g], levels[b])
        let greyStep = min(23, max(0, ((red + green + blue) / 3 - 8 + 5) / 10))
        let greyValue = 8 + 10 * greyStep
        let grey = (232 + greyStep, greyValue, greyValue, greyValue)
        func distance(_ candidate: (Int, Int, Int, Int)) -> Int {
            let (dr, dg, db) = (candidate.1 - red, candidate.2 - green, candidate.3 - blue)
            return dr * dr + dg * dg + db * db
        }
        return UInt8(distance(grey) < distance(cube) ? grey.0 : cube.0)
    }
}
