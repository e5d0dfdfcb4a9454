/// A D-Bus value of the few types mhz sends and reads, with its type signature: what the
/// MPRIS properties, the Notify arguments and their replies are made of.
///
/// A value, so the MPRIS mapping and the notification's arguments are pure functions that
/// tests compare, and one marshaller (`BusMessage`) writes all of them.
enum BusValue: Sendable, Equatable {
    /// `s`.
    case string(String)
    /// `o`: an object path (the caller keeps it valid).
    case objectPath(String)
    /// `x`.
    case int64(Int64)
    /// `i`.
    case int32(Int32)
    /// `u`.
    case uint32(UInt32)
    /// `d`.
    case double(Double)
    /// `b`.
    case bool(Bool)
    /// `as`.
    case strings([String])
    /// `a{sv}`: entries in order (D-Bus keeps the order; tests compare it).
    case dictionary([BusEntry])

    /// The type signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .int64: "x"
        case .int32: "i"
        case .uint32: "u"
        case .double: "d"
        case .bool: "b"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }

    /// The string of an `s` or `o`, else nil.
    var stringValue: String? {
        switch self {
        case .string(let value), .objectPath(let value): value
        default: nil
        }
    }

    /// The value under `key` of an `a{sv}`, else nil.
    subscript(key: String) -> BusValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }
}

/// One `{sv}` entry of an `a{sv}` dictionary.
struct BusEntry: Sendable, Equatable {
    /// The key.
    var key: String
    /// The value, sent in a variant.
    var value: BusValue

    /// Creates an entry.
    init(_ key: String, _ value: BusValue) {
        self.key = key
        self.value = value
    }
}
