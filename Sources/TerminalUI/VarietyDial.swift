/// The station's variety dial as the keys turn it: 0 (only what you love) to 1
/// (adventurous). The composition root shares it with the requests that carry it.
public protocol VarietyDial: Sendable {
    /// Turns the dial by `step` and returns where it now stands.
    func turn(by step: Double) -> Double
}

/// What the status line says when the dial turned.
enum VarietyNote {
    /// "variety 0.6 of 1: more new songs from the next list on".
    static func text(_ value: Double, step: Double) -> String {
        let shown = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        let direction = step > 0 ? "more new songs" : "more of what you love"
        return "variety \(shown) of 1: \(direction) from the next list on"
    }
}
