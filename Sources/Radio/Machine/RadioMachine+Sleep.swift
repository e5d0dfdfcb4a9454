/// The sleep timer's rules (see ``SleepTimer``).
extension RadioMachine {
    /// `sleep DURATION`: (re)sets the timer to run out in `seconds`; `sleep off` (nil)
    /// takes it away, and the volume back where it was if the fade had begun.
    mutating func sleep(_ seconds: Double?) -> [RadioEffect] {
        var effects: [RadioEffect] = []
        let restore = sleepTimer?.volume ?? volume
        if case .fading? = sleepTimer?.stage { effects.append(.setVolume(restore)) }
        guard let seconds else {
            sleepTimer = nil
            return effects + [.emit(.sleep(seconds: nil))]
        }
        let (fadeBegins, interval) = SleepTimer.timing(of: seconds)
        let token = nextSleepToken
        nextSleepToken += 1
        effects.append(.emit(.sleep(seconds: seconds)))
        if fadeBegins > 0 {
            sleepTimer = SleepTimer(token: token, volume: restore, interval: interval, stage: .waiting)
            effects.append(.scheduleSleep(after: fadeBegins, token: token, endsIn: seconds))
        } else {
            sleepTimer = SleepTimer(token: token, volume: restore, interval: interval, stage: .fading(step: 0))
            effects.append(.scheduleSleep(after: interval, token: token, endsIn: seconds))
        }
        return effects
    }

    /// The timer fired: the fade begins, or takes its next step; the last step is silence,
    /// and then mhz stops as `quit` does, with the volume put back for the next start.
    mutating func sleepFired(_ token: Int) -> [RadioEffect] {
        guard var timer = sleepTimer, timer.token == token else { return [] }
        let token = nextSleepToken
        nextSleepToken += 1
        timer.token = token
        let steps = SleepTimer.fadeSteps
        switch timer.stage {
        case .waiting:
            timer.stage = .fading(step: 0)
            sleepTimer = timer
            return [.scheduleSleep(after: timer.interval, token: token, endsIn: timer.interval * Double(steps))]
        case .fading(let done):
            let step = done + 1
            let level = SleepTimer.level(from: timer.volume, step: step)
            timer.stage = .fading(step: step)
            sleepTimer = timer
            var effects: [RadioEffect] = [.setVolume(level), .emit(.fading(volume: level))]
            guard step >= steps else {
                let left = timer.interval * Double(steps - step)
                return effects + [.scheduleSleep(after: timer.interval, token: token, endsIn: left)]
            }
            sleepTimer = nil
            effects += handle(.quit)
            // The volume goes back before the end, so the next start (and whoever reads
            // mpv's volume meanwhile) finds it where the listener left it.
            effects.insert(.setVolume(timer.volume), at: effects.count - 1)
            return effects
        }
    }
}
