/// `dbus-monitor`'s default output cut into the signals it printed: a header line
/// (`signal time=… path=…; interface=…; member=…`) and the body indented under it.
enum DBusMonitorOutput {
    /// One signal.
    struct Signal {
        /// The header's `member=`.
        var member: String
        /// The body's lines.
        var body: String

        /// The names a `PropertiesChanged` says changed: the keys of its second argument,
        /// the `a{sv}`, whose `dict entry(` keys dbus-monitor indents by nine spaces (its
        /// nested dictionaries are indented further).
        var changedProperties: [String] {
            body.split(separator: "\n").compactMap { line in
                let prefix = "         string \""
                guard line.hasPrefix(prefix), line.hasSuffix("\""),
                      !line.dropFirst(prefix.count).hasPrefix(" ") else { return nil }
                return String(line.dropFirst(prefix.count).dropLast())
            }
        }
    }

    /// The signals of the MPRIS object in `text`, in order (dbus-monitor's own NameAcquired
    /// and NameLost left out).
    static func signals(in text: String) -> [Signal] {
        var signals: [Signal] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("signal ") {
                guard line.contains("path=/org/mpris/MediaPlayer2;"),
                      let member = line.split(separator: "member=").last else {
                    signals.append(Signal(member: "", body: ""))
                    continue
                }
                signals.append(Signal(member: String(member), body: ""))
            } else if line.hasPrefix("method ") || line.hasPrefix("error ") {
                signals.append(Signal(member: "", body: ""))
            } else if !signals.isEmpty {
                signals[signals.count - 1].body += line + "\n"
            }
        }
        return signals.filter { !$0.member.isEmpty }
    }
}
