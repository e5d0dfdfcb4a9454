import Radio

/// The words a JSON event line carries beside its fields: a status's and a source's
/// `status_text`, an error's `message`. They are the front end's (the terminal UI's texts,
/// so a script reads what the screen shows); the composition root hands them in, since this
/// target makes no user-facing text of its own.
public struct EventWords: Sendable {
    /// The status line of a snapshot ("" when there is nothing to say).
    public var status: @Sendable (RadioSnapshot) -> String
    /// What a change of where songs come from is called ("" when it needs no words).
    public var source: @Sendable (SongSource) -> String
    /// One line for a radio failure: what happened and what to do.
    public var error: @Sendable (RadioError) -> String

    /// Words made by the three functions given.
    public init(status: @escaping @Sendable (RadioSnapshot) -> String,
                source: @escaping @Sendable (SongSource) -> String,
                error: @escaping @Sendable (RadioError) -> String) {
        self.status = status
        self.source = source
        self.error = error
    }
}
