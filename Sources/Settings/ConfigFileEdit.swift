import Foundation

/// Sets one key of one table in `config.toml`'s text, leaving every other line as the
/// listener wrote it: the key's line is replaced where it is, else added at the end of
/// its table, else the table is added at the end of the file.
public enum ConfigFileEdit {
    /// `text` with `key = "value"` in `[table]`.
    public static func setting(_ key: String, to value: String, in table: String, of text: String) -> String {
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let entry = "\(key) = \(quoted(value))"
        var inTable = false
        var tableEnd: Int?
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                if inTable { break }
                inTable = line.replacingOccurrences(of: " ", with: "").hasPrefix("[\(table)]")
                if inTable { tableEnd = index + 1 }
                continue
            }
            guard inTable else { continue }
            if !line.isEmpty, !line.hasPrefix("#") { tableEnd = index + 1 }
            if let equals = line.firstIndex(of: "="),
               line[..<equals].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) == key {
                lines[index] = entry
                return lines.joined(separator: "\n") + "\n"
            }
        }
        if let tableEnd {
            lines.insert(entry, at: tableEnd)
        } else {
            if let last = lines.last, !last.trimmingCharacters(in: .whitespaces).isEmpty { lines.append("") }
            lines += ["[\(table)]", entry]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A TOML basic string.
    public static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
