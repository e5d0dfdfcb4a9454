/// An attribute list (RFC 8216 §4.2): `NAME=VALUE` pairs separated by commas, values
/// quoted (commas allowed inside) or not. Tolerant as players are: spaces after commas and
/// around `=` (`PROGRAM-ID=1, BANDWIDTH=…`) are skipped.
struct AttributeList {
    /// Values by name, quotes removed.
    private(set) var values: [String: String] = [:]

    /// Reads `text`; nil when a quote is not closed or a pair has no `=`.
    init?(_ text: Substring) {
        var index = text.startIndex
        func skipSpaces() { while index < text.endIndex, text[index] == " " || text[index] == "\t" { index = text.index(after: index) } }
        while true {
            skipSpaces()
            if index == text.endIndex { break }
            guard let equals = text[index...].firstIndex(of: "=") else { return nil }
            let name = text[index..<equals].trimmingCharacters(in: .whitespaces).uppercased()
            guard !name.isEmpty, !name.contains(",") else { return nil }
            index = text.index(after: equals)
            skipSpaces()
            var value: String
            if index < text.endIndex, text[index] == "\"" {
                let start = text.index(after: index)
                guard let close = text[start...].firstIndex(of: "\"") else { return nil }
                value = String(text[start..<close])
                index = text.index(after: close)
                skipSpaces()
                if index < text.endIndex {
                    guard text[index] == "," else { return nil }
                    index = text.index(after: index)
                }
            } else {
                let end = text[index...].firstIndex(of: ",") ?? text.endIndex
                value = text[index..<end].trimmingCharacters(in: .whitespaces)
                index = end == text.endIndex ? end : text.index(after: end)
            }
            values[name] = value
        }
    }

    /// The value of `name`.
    subscript(_ name: String) -> String? { values[name] }

    /// A decimal-integer value.
    func integer(_ name: String) -> Int? { values[name].flatMap { Int($0) } }

    /// `YES`.
    func flag(_ name: String) -> Bool { values[name]?.uppercased() == "YES" }
}
