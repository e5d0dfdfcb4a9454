import Foundation

/// Readers for fields whose JSON type real servers did not keep stable (docs/PROTOCOL.md
/// §4.1, §4.2, §6.1): ids as numbers or strings, `like` as 0/1, "0"/"1" or a boolean,
/// numbers as strings. Each accepts every variant seen in the recorded fixtures and
/// reports a type mismatch only when no reading makes sense.
extension KeyedDecodingContainer {
    /// Reads a string, accepting a number in its place (`"sid": 280187`).
    func lenientString(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let s = try? decode(String.self, forKey: key) { return s }
        if let i = try? decode(Int64.self, forKey: key) { return String(i) }
        if let d = try? decode(Double.self, forKey: key) { return String(d) }
        if let b = try? decode(Bool.self, forKey: key) { return b ? "1" : "0" }
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: codingPath + [key], debugDescription: "expected a string or a number"))
    }

    /// Reads an integer, accepting a numeric string or a float (`"length": "228"`). A
    /// number past `Int`'s range is a type mismatch like any other, never a trap.
    func lenientInt(_ key: Key) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let i = try? decode(Int.self, forKey: key) { return i }
        if let d = try? decode(Double.self, forKey: key), let i = Int(exactly: d.rounded()) { return i }
        if let s = try? decode(String.self, forKey: key) {
            let t = s.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { return nil }
            if let i = Int(t) { return i }
            if let d = Double(t), let i = Int(exactly: d.rounded()) { return i }
        }
        if let b = try? decode(Bool.self, forKey: key) { return b ? 1 : 0 }
        throw DecodingError.typeMismatch(
            Int.self, .init(codingPath: codingPath + [key], debugDescription: "expected an integer"))
    }

    /// Reads a float, accepting a numeric string.
    func lenientDouble(_ key: Key) throws -> Double? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let d = try? decode(Double.self, forKey: key) { return d }
        if let s = try? decode(String.self, forKey: key) {
            let t = s.trimmingCharacters(in: .whitespaces)
            return t.isEmpty ? nil : Double(t)
        }
        throw DecodingError.typeMismatch(
            Double.self, .init(codingPath: codingPath + [key], debugDescription: "expected a number"))
    }

    /// Reads a flag given as `true`/`false`, `0`/`1` or `"0"`/`"1"`.
    func lenientBool(_ key: Key) throws -> Bool? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let b = try? decode(Bool.self, forKey: key) { return b }
        if let i = try? decode(Int.self, forKey: key) { return i != 0 }
        if let s = try? decode(String.self, forKey: key) {
            switch s.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "true", "yes": return true
            case "0", "false", "no", "": return false
            default: break
            }
        }
        throw DecodingError.typeMismatch(
            Bool.self, .init(codingPath: codingPath + [key], debugDescription: "expected a flag"))
    }
}
