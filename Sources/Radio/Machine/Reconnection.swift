/// The player is reloading the current song after its stream broke: front ends say so
/// (and which attempt it is) rather than showing a frozen progress bar.
public struct Reconnection: Sendable, Equatable {
    /// Which reload attempt runs or waits, from 1.
    public var attempt: Int
    /// The most attempts the player makes before it gives up on the song.
    public var maxAttempts: Int

    /// Creates a reconnection state.
    public init(attempt: Int, maxAttempts: Int) {
        self.attempt = attempt
        self.maxAttempts = maxAttempts
    }
}
