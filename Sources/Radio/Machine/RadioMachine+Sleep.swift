/// The sleep timer in the radio (its rule is ``SleepTimer``'s): its waits are
/// ``RadioEffect/scheduleSleep(after:token:endsIn:)``s whose ``RadioInput/sleepTimer(token:)``
/// comes back through the session's clock.
extension RadioMachine {
    /// `sleep DURATION`, or `sleep off` (nil).
    mutating func sleep(_ seconds: Double?) -> [RadioEffect] {
        effects(of: sleepTimer.set(seconds, volume: volume))
    }

    /// A wait of the timer is over.
    mutating func sleepFired(_ token: Int) -> [RadioEffect] {
        effects(of: sleepTimer.fired(token: token, volume: volume))
    }

    /// The timer's steps as the radio's effects: running out stops as `quit` does.
    private mutating func effects(of steps: [SleepTimer.Step]) -> [RadioEffect] {
        var effects: [RadioEffect] = []
        for step in steps {
            switch step {
            case .setVolume(let level): effects.append(.setVolume(level))
            case .emit(let event): effects.append(.emit(event))
            case .wait(let seconds, let token, let endsIn):
                effects.append(.scheduleSleep(after: seconds, token: token, endsIn: endsIn))
            case .runOut(let volume):
                var quitting = handle(.quit)
                // The volume goes back before the end, so the next start (and whoever reads
                // mpv's volume meanwhile) finds it where the listener left it.
                quitting.insert(.setVolume(volume), at: max(0, quitting.count - 1))
                effects += quitting
            }
        }
        return effects
    }
}
