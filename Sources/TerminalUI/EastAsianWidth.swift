/// A small stand-in for `wcwidth` for systems without a UTF-8 locale to borrow: Unicode's
/// East Asian Width "W"/"F" blocks and emoji presentation are 2 columns, marks and format
/// characters 0, everything else 1.
///
/// It is deliberately coarse (block ranges, not the full derived table) but agrees with
/// glibc 2.36 on what the UI shows in practice: CJK ideographs, kana, hangul, full-width
/// forms, emoji, regional-indicator flags and combining accents. Tests compare the two.
enum EastAsianWidth {
    /// Inclusive ranges of wide code points that are not emoji (emoji are decided by the
    /// `isEmojiPresentation` property instead of a table that would age with Unicode).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,    // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed CJK
        0x3400...0x4DBF,    // CJK Extension A
        0x4E00...0x9FFF,    // CJK Unified Ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo Extended-A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // full-width forms
        0xFFE0...0xFFE6,    // full-width signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut
        0x1AFF0...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK Extensions B–F
        0x30000...0x3FFFD,  // CJK Extensions G–H
    ]

    /// Columns for one scalar, the way glibc's `wcwidth` would count it (controls: 0).
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        // glibc counts the soft hyphen as visible, and Hangul medial vowels and final
        // consonants as combining (they join the preceding initial consonant).
        if value == 0xAD { return 1 }
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Regional indicators have emoji presentation, but glibc (and most terminals)
        // give each half of a flag one column.
        if (0x1F1E6...0x1F1FF).contains(value) { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
