/// What takes the radio's commands: the radio's own session, or a live channel's.
/// Front ends and the command pump speak to either through it.
public protocol RadioControl: Sendable {
    /// Handles `command`; returns once its effects have begun.
    func send(_ command: RadioCommand) async
}

extension RadioSession: RadioControl {}
