import CSDBus

/// An sd-bus message borrowed for the length of a callback or a send: appends `BusValue`s
/// to it and reads them back. Not `Sendable` and never stored: sd_bus_message_read_basic(3)
/// says a string read "is only borrowed and the contents must be copied if they are to be
/// used after the end of the message's lifetime", so everything read is copied into Swift
/// values at once.
struct BusMessage {
    /// The `sd_bus_message *`.
    let raw: OpaquePointer

    /// Appends `value`, containers and all. Returns sd-bus's negative errno on failure.
    @discardableResult
    func append(_ value: BusValue) -> Int32 {
        switch value {
        case .string(let text): return basic("s", text)
        case .objectPath(let path): return basic("o", path)
        case .int64(var number): return mhz_sd_bus_message_append_basic(raw, code("x"), &number)
        case .int32(var number): return mhz_sd_bus_message_append_basic(raw, code("i"), &number)
        case .uint32(var number): return mhz_sd_bus_message_append_basic(raw, code("u"), &number)
        case .double(var number): return mhz_sd_bus_message_append_basic(raw, code("d"), &number)
        case .bool(let flag):
            // sd_bus_message_append_basic(3): a "b" is read from an int (4 bytes), not a bool.
            var word: Int32 = flag ? 1 : 0
            return mhz_sd_bus_message_append_basic(raw, code("b"), &word)
        case .strings(let list):
            return container("a", "s") {
                for item in list {
                    let r = basic("s", item)
                    if r < 0 { return r }
                }
                return 0
            }
        case .dictionary(let entries):
            return container("a", "{sv}") {
                for entry in entries {
                    let r = container("e", "sv") {
                        let r = basic("s", entry.key)
                        if r < 0 { return r }
                        return container("v", entry.value.signature) { append(entry.value) }
                    }
                    if r < 0 { return r }
                }
                return 0
            }
        }
    }

    /// Appends every value in order; stops at the first failure.
    @discardableResult
    func append(_ values: [BusValue]) -> Int32 {
        for value in values {
            let r = append(value)
            if r < 0 { return r }
        }
        return 0
    }

    /// Reads the next value, whatever its type among `BusValue`'s (a variant is read as its
    /// content); nil at the end of the message or container, or for a type mhz never reads.
    func read() -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard mhz_sd_bus_message_peek_type(raw, &type, &contents) > 0 else { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            var text: UnsafePointer<CChar>?
            guard mhz_sd_bus_message_read_basic(raw, type, &text) > 0, let text else { return nil }
            let value = String(cString: text)
            return type == code("s") ? .string(value) : .objectPath(value)
        case UInt8(ascii: "x"):
            var number: Int64 = 0
            return mhz_sd_bus_message_read_basic(raw, type, &number) > 0 ? .int64(number) : nil
        case UInt8(ascii: "i"):
            var number: Int32 = 0
            return mhz_sd_bus_message_read_basic(raw, type, &number) > 0 ? .int32(number) : nil
        case UInt8(ascii: "u"):
            var number: UInt32 = 0
            return mhz_sd_bus_message_read_basic(raw, type, &number) > 0 ? .uint32(number) : nil
        case UInt8(ascii: "d"):
            var number: Double = 0
            return mhz_sd_bus_message_read_basic(raw, type, &number) > 0 ? .double(number) : nil
        case UInt8(ascii: "b"):
            var word: Int32 = 0
            return mhz_sd_bus_message_read_basic(raw, type, &word) > 0 ? .bool(word != 0) : nil
        case UInt8(ascii: "v"):
            guard mhz_sd_bus_message_enter_container(raw, type, inner) > 0 else { return nil }
            defer { mhz_sd_bus_message_exit_container(raw) }
            return read()
        case UInt8(ascii: "a") where inner == "s":
            guard mhz_sd_bus_message_enter_container(raw, type, inner) > 0 else { return nil }
            defer { mhz_sd_bus_message_exit_container(raw) }
            var list: [String] = []
            while let item = read()?.stringValue { list.append(item) }
            return .strings(list)
        case UInt8(ascii: "a") where inner == "{sv}":
            guard mhz_sd_bus_message_enter_container(raw, type, inner) > 0 else { return nil }
            defer { mhz_sd_bus_message_exit_container(raw) }
            var entries: [BusEntry] = []
            while mhz_sd_bus_message_enter_container(raw, code("e"), "sv") > 0 {
                defer { mhz_sd_bus_message_exit_container(raw) }
                guard let key = read()?.stringValue, let value = read() else { return nil }
                entries.append(BusEntry(key, value))
            }
            return .dictionary(entries)
        default:
            mhz_sd_bus_message_skip(raw, nil)
            return nil
        }
    }

    /// Reads every remaining value of the message (or container).
    func readAll() -> [BusValue] {
        var values: [BusValue] = []
        while let value = read() { values.append(value) }
        return values
    }

    /// The D-Bus error a reply carries, or nil when it is a method return.
    var error: (name: String, message: String)? {
        guard mhz_sd_bus_message_is_method_error(raw, nil) > 0, let error = mhz_sd_bus_message_get_error(raw) else {
            return nil
        }
        return (error.pointee.name.map { String(cString: $0) } ?? "",
                error.pointee.message.map { String(cString: $0) } ?? "")
    }

    /// The member (method or signal name), if any.
    var member: String? { mhz_sd_bus_message_get_member(raw).map { String(cString: $0) } }

    private func basic(_ type: Unicode.Scalar, _ text: String) -> Int32 {
        // "For types "s", "o", and "g", the parameter p is interpreted as a pointer to a
        // NUL-terminated character sequence", not to a pointer.
        text.withCString { mhz_sd_bus_message_append_basic(raw, code(type), $0) }
    }

    private func container(_ type: Unicode.Scalar, _ contents: String, _ body: () -> Int32) -> Int32 {
        var r = mhz_sd_bus_message_open_container(raw, code(type), contents)
        if r < 0 { return r }
        r = body()
        if r < 0 { return r }
        return mhz_sd_bus_message_close_container(raw)
    }

    private func code(_ type: Unicode.Scalar) -> CChar { CChar(bitPattern: UInt8(type.value)) }
}
