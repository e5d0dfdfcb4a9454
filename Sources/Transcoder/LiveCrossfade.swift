import Foundation

/// The curve two songs of a live broadcast overlap on: equal power, the ending song at
/// `cos(πt/2)` and the next at `sin(πt/2)` as `t` goes from 0 to 1, so the two gains'
/// squares always add up to 1 and two unrelated songs together are as loud as either
/// alone (a linear fade dips by 3 dB at its middle).
enum LiveCrossfade {
    /// The gains at `t` (0…1, clamped) of the fade: the ending song's and the next one's.
    static func gains(at t: Double) -> (out: Float, in: Float) {
        let angle = Double.pi / 2 * min(1, max(0, t.isFinite ? t : 0))
        return (Float(cos(angle)), Float(sin(angle)))
    }
}
