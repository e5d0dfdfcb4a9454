import CMpv
import Foundation

/// A Swift copy of an `mpv_node` tree (command replies, property values), safe to keep after
/// mpv frees the original, plus helpers that lend mpv temporary C nodes built from strings.
enum MPVNode: Sendable, Equatable {
    /// `MPV_FORMAT_NONE`: for a property, "unavailable" (e.g. `time-pos` while idle).
    case none
    /// `MPV_FORMAT_STRING`.
    case string(String)
    /// `MPV_FORMAT_FLAG`.
    case flag(Bool)
    /// `MPV_FORMAT_INT64`.
    case int64(Int64)
    /// `MPV_FORMAT_DOUBLE`.
    case double(Double)
    /// `MPV_FORMAT_NODE_ARRAY`.
    case array([MPVNode])
    /// `MPV_FORMAT_NODE_MAP` (mpv never sends duplicate keys in replies).
    case map([String: MPVNode])

    /// Deep-copies `node`. Formats the layer never asks for (byte arrays, nested
    /// `MPV_FORMAT_NODE`) become `.none`.
    init(copying node: mpv_node) {
        switch node.format {
        case MPV_FORMAT_STRING, MPV_FORMAT_OSD_STRING:
            self = node.u.string.map { .string(String(cString: $0)) } ?? .none
        case MPV_FORMAT_FLAG: self = .flag(node.u.flag != 0)
        case MPV_FORMAT_INT64: self = .int64(node.u.int64)
        case MPV_FORMAT_DOUBLE: self = .double(node.u.double_)
        case MPV_FORMAT_NODE_ARRAY:
            guard let list = node.u.list?.pointee else { self = .array([]); return }
            self = .array((0..<Int(list.num)).map { MPVNode(copying: list.values[$0]) })
        case MPV_FORMAT_NODE_MAP:
            guard let list = node.u.list?.pointee else { self = .map([:]); return }
            var map: [String: MPVNode] = [:]
            for index in 0..<Int(list.num) {
                guard let key = list.keys[index] else { continue }
                map[String(cString: key)] = MPVNode(copying: list.values[index])
            }
            self = .map(map)
        default: self = .none
        }
    }

    /// The value under `key` when this is a map.
    subscript(key: String) -> MPVNode? {
        if case .map(let map) = self { map[key] } else { nil }
    }

    /// The number, when this is a double or an int64.
    var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int64(let value): Double(value)
        default: nil
        }
    }

    /// Lends `body` an `MPV_FORMAT_NODE_ARRAY` of strings; it is freed when `body` returns.
    static func withStringArray<Result, Failure: Error>(
        _ items: [String],
        _ body: (UnsafeMutablePointer<mpv_node>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withStringList(keys: nil, values: items, body)
    }

    /// Lends `body` an `MPV_FORMAT_NODE_MAP` of strings (ordered as given); it is freed when
    /// `body` returns.
    static func withStringMap<Result, Failure: Error>(
        _ pairs: [(String, String)],
        _ body: (UnsafeMutablePointer<mpv_node>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withStringList(keys: pairs.map(\.0), values: pairs.map(\.1), body)
    }

    /// Builds the C list by hand: mpv only reads it during the call (it copies what it
    /// keeps), so everything is allocated here and released by the `defer`.
    private static func withStringList<Result, Failure: Error>(
        keys: [String]?, values: [String],
        _ body: (UnsafeMutablePointer<mpv_node>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let count = values.count
        let valueStrings = values.map { strdup($0) }
        let keyStrings = keys?.map { strdup($0) }
        let nodes = UnsafeMutablePointer<mpv_node>.allocate(capacity: max(count, 1))
        for (index, string) in valueStrings.enumerated() {
            var element = mpv_node()
            element.format = MPV_FORMAT_STRING
            element.u.string = string
            (nodes + index).initialize(to: element)
        }
        var keyArray: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        if let keyStrings {
            let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: max(count, 1))
            array.initialize(from: keyStrings, count: count)
            keyArray = array
        }
        let list = UnsafeMutablePointer<mpv_node_list>.allocate(capacity: 1)
        list.initialize(to: mpv_node_list(num: Int32(count), values: nodes, keys: keyArray))
        let root = UnsafeMutablePointer<mpv_node>.allocate(capacity: 1)
        var rootValue = mpv_node()
        rootValue.format = keys == nil ? MPV_FORMAT_NODE_ARRAY : MPV_FORMAT_NODE_MAP
        rootValue.u.list = list
        root.initialize(to: rootValue)
        defer {
            root.deallocate()
            list.deallocate()
            keyArray?.deallocate()
            nodes.deinitialize(count: count)
            nodes.deallocate()
            valueStrings.forEach { free($0) }
            keyStrings?.forEach { free($0) }
        }
        return try body(root)
    }
}
