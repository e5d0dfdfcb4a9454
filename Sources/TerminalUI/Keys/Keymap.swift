import Radio

/// The key table in effect: `KeyBinding.defaults` with the user's overrides applied.
/// Resolves key presses to actions and produces the hint line; the help screen reads
/// `bindings` directly.
public struct Keymap: Sendable, Equatable {
    /// The effective rows, in table order.
    public private(set) var bindings: [KeyBinding]

    /// Every action name an override may use, in table order.
    public static let actionNames = KeyBinding.defaults.map(\.action)

    /// Names rows had before, still accepted by overrides: (former name, action now).
    public static let formerNames: [(former: String, current: String)] =
        KeyBinding.defaults.flatMap { row in row.formerNames.map { ($0, row.action) } }

    /// The defaults without overrides.
    public static let standard = Keymap(bindings: KeyBinding.defaults)

    init(bindings: [KeyBinding]) {
        self.bindings = bindings
    }

    /// Applies the entries of `config.toml [keys]`, which come in two forms:
    ///
    /// - **action = keys**: an action name of the table (`login = "ctrl+l"`), or a name it
    ///   had before (``formerNames``: `downloads` for `downloads-view`). The value is
    ///   one key (`"n"`, `"space"`, `"left"`, `"F5"`, `"ctrl+l"`; see `Key.parse`), several
    ///   separated by spaces (`"? h"`), or `"none"` to unbind; it replaces the action's
    ///   default keys.
    /// - **key = command line**: any other name must be a key, and its value a command
    ///   line in the language headless stdin reads (`"ctrl+r" = "channel -3"`,
    ///   `"9" = "volume 90"`), parsed by `RadioCommand.parse`. The key sends that command
    ///   (`login` opens the login dialog, `quit` leaves), on the now-playing screen; the
    ///   help screen lists it under its command line.
    ///
    /// Action names are words of several letters and keys are single characters or key
    /// names, so the two forms cannot be mistaken for each other. A key an entry claims is
    /// taken away from any default binding on the same screen, so `skip = "l"` works and
    /// leaves `like` without a key; two entries claiming one key are an error.
    ///
    /// - Throws: `KeymapError`, naming the entry, for a name that is neither an action nor
    ///   a key, a value that is not a key, a command line that does not parse, a key
    ///   claimed twice, or an action given under its name and a former one. Names are
    ///   checked in sorted order so the same config always reports the same first error.
    public init(overrides: [String: String] = [:]) throws(KeymapError) {
        var bindings = KeyBinding.defaults
        // `row` is the row's action, `name` the entry as the error names it: as written
        // for an action (a former name too), the command line for a command binding.
        var claimed: [(row: String, name: String, context: KeyContext, keys: [Key])] = []
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
            let index: Int
            let keys: [Key]
            if let action = bindings.firstIndex(where: { $0.isNamed(name) }) {
                let current = bindings[action].action
                if current != name, overrides[current] != nil { throw .formerName(name, current: current) }
                index = action
                keys = try Self.parseKeys(value, action: name)
            } else {
                (index, keys) = try Self.bindCommand(value, to: name, in: &bindings)
            }
            let row = bindings[index].action
            let label = bindings[index].isCommandBinding ? row : name
            let context = bindings[index].context
            for key in keys {
                if let other = claimed.first(where: { $0.keys.contains(key) && $0.context.sharesKeys(with: context) }) {
                    throw .duplicateKey(action: label, key: key.name, otherAction: other.name)
                }
            }
            claimed.append((row, label, context, keys))
            bindings[index].keys = bindings[index].isCommandBinding ? bindings[index].keys : keys
        }
        // Overridden keys win over defaults that used them.
        for claim in claimed {
            for index in bindings.indices
            where bindings[index].action != claim.row
                && !claimed.contains(where: { $0.row == bindings[index].action })
                && bindings[index].context.sharesKeys(with: claim.context) {
                bindings[index].keys.removeAll(where: claim.keys.contains)
            }
        }
        self.bindings = bindings
    }

    /// Adds (or extends) the row that makes key `name` send the command line `line`;
    /// returns the row's index and the key.
    private static func bindCommand(_ line: String, to name: String,
                                    in bindings: inout [KeyBinding]) throws(KeymapError) -> (Int, [Key]) {
        guard let key = Key.parse(name) else { throw .unknownAction(name) }
        let command: RadioCommand
        do {
            command = try RadioCommand.parse(line)
        } catch {
            throw .invalidCommand(key: name, line: line, error)
        }
        let label = command.line
        if let existing = bindings.firstIndex(where: { $0.isCommandBinding && $0.action == label }) {
            if !bindings[existing].keys.contains(key) { bindings[existing].keys.append(key) }
            return (existing, [key])
        }
        bindings.append(KeyBinding(command: command, keys: [key]))
        return (bindings.count - 1, [key])
    }

    private static func parseKeys(_ value: String, action: String) throws(KeymapError) -> [Key] {
        // A lone space means the space bar; otherwise spaces separate keys.
        if value == " " { return [.character(" ")] }
        let words = value.split(separator: " ").map(String.init)
        if words.isEmpty { throw .invalidKey(action: action, key: value) }
        if words.count == 1, words[0].lowercased() == "none" { return [] }
        var keys: [Key] = []
        for word in words {
            guard let key = Key.parse(word) else { throw .invalidKey(action: action, key: word) }
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The row `key` triggers among `contexts`, if any.
    public func binding(for key: Key, in contexts: [KeyContext]) -> KeyBinding? {
        bindings.first { contexts.contains($0.context) && $0.keys.contains(key) }
    }

    /// The action `key` triggers among `contexts`, if any.
    public func action(for key: Key, in contexts: [KeyContext]) -> KeyAction? {
        binding(for: key, in: contexts)?.effect
    }

    /// The keys bound to an action name or a former name (empty when unknown or unbound).
    public func keys(for action: String) -> [Key] {
        bindings.first { $0.action == action || $0.formerNames.contains(action) }?.keys ?? []
    }

    /// The one-line reminder of the most useful keys of `contexts`, e.g.
    /// `space toggle  n skip  ? help  q quit`, at most `columns` wide (not padded).
    /// Items are dropped whole, least important first; those kept stay in table order.
    public func hintLine(for contexts: [KeyContext], columns: Int) -> String {
        let items = bindings.enumerated().compactMap { offset, binding -> (rank: Int, offset: Int, text: String)? in
            guard let rank = binding.hintRank, contexts.contains(binding.context),
                  let key = binding.keys.first else { return nil }
            return (rank, offset, key.label + " " + Self.hintWord(binding.action))
        }
        let separator = "  "
        var chosen: [(rank: Int, offset: Int, text: String)] = []
        var used = 0
        for item in items.sorted(by: { $0.rank < $1.rank }) {
            let cost = DisplayWidth.width(of: item.text) + (chosen.isEmpty ? 0 : separator.count)
            if used + cost <= columns {
                chosen.append(item)
                used += cost
            }
        }
        return chosen.sorted { $0.offset < $1.offset }.map(\.text).joined(separator: separator)
    }

    /// The short word for an action in the hint line: the rows of the channel list, the
    /// downloads view and the lyrics view drop their prefix (`list-choose` → `choose`,
    /// `downloads-pause` → `pause`, `lyrics-close` → `close`), because the screen already
    /// says where the key acts.
    private static func hintWord(_ action: String) -> String {
        for prefix in ["list-", "downloads-", "lyrics-", "history-"] where action.hasPrefix(prefix) {
            return String(action.dropFirst(prefix.count))
        }
        return action
    }
}

/// Why a `[keys]` entry was refused. Every case names the entry (an action, or the key of
/// a command binding) so the config loader can point at its line.
public enum KeymapError: Error, Sendable, Equatable {
    /// No action has this name, and it is not a key either.
    case unknownAction(String)
    /// The entry binds `key` to a command line that does not parse.
    case invalidCommand(key: String, line: String, CommandParseError)
    /// The value given for `action` is not a key (`key` is the offending part).
    case invalidKey(action: String, key: String)
    /// `action` was given `key`, which the override of `otherAction` already claims.
    case duplicateKey(action: String, key: String, otherAction: String)
    /// `[keys]` names one action twice: by `name`, its former name, and by `current`.
    case formerName(String, current: String)

    /// The action name the error is about.
    public var action: String {
        switch self {
        case .unknownAction(let action): action
        case .invalidCommand(let key, _, _): key
        case .invalidKey(let action, _): action
        case .duplicateKey(let action, _, _): action
        case .formerName(let name, _): name
        }
    }
}
