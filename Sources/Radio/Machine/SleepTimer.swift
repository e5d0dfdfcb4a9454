import Foundation

/// The sleep timer (`sleep DURATION`, `mhz --sleep`; its times in words are ``SleepTime``):
/// when it runs out mhz fades to silence over the last min(10 s, duration), stops with the
/// position saved, puts the volume back for the next start and quits.
///
/// One rule for the radio (``RadioMachine``) and a live channel (``LiveSession``): each
/// holds one timer, hands it the `sleep` command (``set(_:volume:)``) and the end of each
/// wait it asked for (``fired(token:volume:)``), and does the ``Step``s it answers in
/// order. A wait is a token: one no longer held (the timer was set again, turned off, or
/// ran out) does nothing, so a late firing never needs cancelling. The timer reads no
/// clock: its owner says when a wait makes it run out (``scheduled(ends:)``).
public struct SleepTimer: Sendable, Equatable {
    /// How many steps the fade takes: the volume drops by a tenth of where it was each time.
    public static let fadeSteps = 10
    /// The longest fade.
    public static let longestFade = 10.0
    /// Where a sleep timer is.
    public enum Stage: Sendable, Equatable {
        /// None is set.
        case off
        /// Set: waiting for the fade to begin; its steps will be `interval` seconds apart.
        case waiting(interval: Double)
        /// Fading from `volume` (the listener's when the fade began, put back at the end
        /// and when the timer is turned off midway): `step` steps have lowered it so far.
        case fading(from: Int, step: Int, interval: Double)
    }

    /// What the timer asks of its owner, in order.
    public enum Step: Sendable, Equatable {
        /// Set the player's volume.
        case setVolume(Int)
        /// Tell the front ends (`sleep`, `fading`).
        case emit(RadioEvent)
        /// Call ``fired(token:volume:)`` with `token` after `seconds`; the timer then runs
        /// out in `endsIn` seconds.
        case wait(seconds: Double, token: Int, endsIn: Double)
        /// The timer ran out, silent: stop as `quit` does, and put the volume back to
        /// `volume` for the next start.
        case runOut(volume: Int)
    }

    /// Where it is.
    public private(set) var stage: Stage = .off
    /// The token of the wait under way (a firing with another does nothing).
    public private(set) var token = 0
    /// When it runs out, as its owner last told (nil when off, or not told yet).
    public private(set) var ends: Date?

    /// A timer that is off.
    public init() {}

    /// `sleep DURATION`: (re)sets the timer to run out in `seconds`; `sleep off` (nil)
    /// takes it away. Either way the volume goes back where it was if a fade had begun.
    /// `volume` is the player's now.
    public mutating func set(_ seconds: Double?, volume: Int) -> [Step] {
        var steps: [Step] = []
        var volume = volume
        if case .fading(let from, _, _) = stage {
            volume = from
            steps.append(.setVolume(from))
        }
        stage = .off
        ends = nil
        guard let seconds else { return steps + [.emit(.sleep(seconds: nil))] }
        steps.append(.emit(.sleep(seconds: seconds)))
        let (fadeBegins, interval) = Self.timing(of: seconds)
        if fadeBegins > 0 {
            stage = .waiting(interval: interval)
            return steps + [wait(fadeBegins, endsIn: seconds)]
        }
        stage = .fading(from: volume, step: 0, interval: interval)
        return steps + [wait(interval, endsIn: seconds)]
    }

    /// The wait of `token` is over: the fade begins (from `volume`, the player's now), or
    /// takes its next step; the last step is silence, and then the timer runs out.
    public mutating func fired(token: Int, volume: Int) -> [Step] {
        guard token == self.token else { return [] }
        switch stage {
        case .off:
            return []
        case .waiting(let interval):
            stage = .fading(from: volume, step: 0, interval: interval)
            return [wait(interval, endsIn: interval * Double(Self.fadeSteps))]
        case .fading(let from, let done, let interval):
            let step = done + 1
            let level = Self.level(from: from, step: step)
            let steps: [Step] = [.setVolume(level), .emit(.fading(volume: level))]
            guard step >= Self.fadeSteps else {
                stage = .fading(from: from, step: step, interval: interval)
                return steps + [wait(interval, endsIn: interval * Double(Self.fadeSteps - step))]
            }
            stage = .off
            ends = nil
            return steps + [.runOut(volume: from)]
        }
    }

    /// The owner's clock: the wait just asked for makes the timer run out at `date`.
    public mutating func scheduled(ends date: Date) {
        ends = stage == .off ? nil : date
    }

    /// A wait of `seconds` under a new token.
    private mutating func wait(_ seconds: Double, endsIn: Double) -> Step {
        token += 1
        return .wait(seconds: seconds, token: token, endsIn: endsIn)
    }

    /// For a timer of `seconds`: how long before its fade begins (the fade takes the last
    /// min(``longestFade``, `seconds`)), and the wait between two of its steps.
    public static func timing(of seconds: Double) -> (fadeBegins: Double, step: Double) {
        let fade = min(longestFade, seconds)
        return (seconds - fade, fade / Double(fadeSteps))
    }

    /// The volume after `step` of the fade's steps, from `volume`: a tenth less each step,
    /// silence at the last.
    public static func level(from volume: Int, step: Int) -> Int {
        volume * (fadeSteps - step) / fadeSteps
    }
}
