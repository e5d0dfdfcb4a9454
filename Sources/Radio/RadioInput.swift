import Foundation
import RadioAPI
import Store

/// Everything that can happen to the radio: commands, answers from the station, player
/// events, timers. The state machine turns each into effects.
public enum RadioInput: Sendable, Equatable {
    /// Begin listening on a channel (first start).
    case start(channelID: String)
    /// Begin listening where the last session stopped: this song at this position on its
    /// channel, while the channel's list is fetched for what follows.
    case resume(Track, at: Double, channelID: String)
    /// A command from a front end.
    case command(RadioCommand)
    /// The channel list arrived.
    case channelsLoaded([ChannelInfo])
    /// A report was answered; `tracks` is empty for an acknowledgement.
    case answered(requestID: Int, tracks: [Track])
    /// A report could not be delivered or was refused.
    case failed(requestID: Int, ServiceFailure)
    /// A song's first audio was clocked. Player inputs name the song by the ticket of the
    /// effect that handed it to the player; the machine ignores tickets it does not expect.
    case playerStarted(PlayTicket, duration: Double?)
    /// A song's position.
    case playerProgress(PlayTicket, Double)
    /// A song's duration became known.
    case playerDuration(PlayTicket, Double)
    /// A song's stream broke; the player reloads it (attempt `attempt` of at most `of`).
    case playerRecovering(PlayTicket, attempt: Int, of: Int)
    /// The reload plays: the song goes on.
    case playerRecovered(PlayTicket)
    /// The player paused.
    case playerPaused
    /// The player resumed.
    case playerResumed
    /// The player's volume changed.
    case playerVolume(Int)
    /// A song ended.
    case playerFinished(PlayTicket, PlayerEndReason)
    /// A retry timer set by ``RadioEffect/scheduleRetry(after:token:)`` fired.
    case retryTimer(token: Int)
    /// When that timer will fire (for front ends to say so).
    case retryScheduled(at: Date)
    /// How many feedback reports wait in the outbox.
    case outboxChanged(Int)
    /// The listener logged in while the radio ran: requests carry the new session from
    /// now on, so a fetch waiting out a failure (the red-heart channel refused to an
    /// anonymous listener) is worth making again at once.
    case sessionChanged
}

/// What the state machine asks the world to do, in order.
public enum RadioEffect: Sendable, Equatable {
    /// Send a report; its answer comes back as `.answered`/`.failed` with the same id.
    case send(requestID: Int, Report)
    /// Load and play a song, replacing what plays and what is queued; the song's player
    /// events carry `ticket`.
    case play(Track, startAt: Double, ticket: PlayTicket)
    /// Queue a song to follow the current one without a gap, replacing the song queued
    /// before; its player events carry `ticket`.
    case queueNext(Track, ticket: PlayTicket)
    /// Take the queued song back (the queue changed and nothing follows the current song).
    case clearQueued
    /// Skip to the queued song now (it is `track`, queued with `ticket`), without waiting
    /// for the network; if the player has nothing queued after all, load it.
    case advancePlayer(Track, ticket: PlayTicket)
    /// Pause the player.
    case pausePlayer
    /// Resume the player.
    case resumePlayer
    /// Seek the player.
    case seek(RadioCommand.Seek)
    /// Set the player's volume.
    case setVolume(Int)
    /// Stop the player.
    case stopPlayer
    /// Tell the front ends.
    case emit(RadioEvent)
    /// Persist where the listener is.
    case savePosition(PlaybackPosition)
    /// Persist the channel, for the next start.
    case saveChannel(String)
    /// Feed `.retryTimer(token:)` back after a delay.
    case scheduleRetry(after: Double, token: Int)
    /// Shut down: everything worth saving has been saved by the effects before this one.
    case quit
}
