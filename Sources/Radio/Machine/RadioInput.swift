import Foundation
import RadioAPI

/// Everything that can happen to the radio: commands, answers from the station, player
/// events, timers. The state machine turns each into effects.
public enum RadioInput: Sendable, Equatable {
    /// Begin listening: on `channelID`, else on the channel listened to last, else on the
    /// personal channel. When `lastPosition` (where the last session stopped) is a song of
    /// that channel left midway, it resumes there while the channel's list is fetched for
    /// what follows.
    case start(channelID: String?, lastChannel: String? = nil, lastPosition: PlaybackPosition? = nil,
               trashed: Set<String> = [])
    /// A command from a front end.
    case command(RadioCommand)
    /// The channel list arrived.
    case channelsLoaded([ChannelInfo])
    /// A report was answered; `tracks` is empty for an acknowledgement. The request id is
    /// nil for a report carried over from an earlier run. `saved` holds what the store
    /// remembers of the answer's songs, by sid (long items resume where they were left).
    case answered(requestID: Int?, tracks: [Track], saved: [String: PlaybackPosition] = [:])
    /// A report could not be delivered or was refused (nil: a report carried over from an
    /// earlier run, or one already answered as failed).
    case failed(requestID: Int?, ServiceFailure)
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
    case playerFinished(PlayTicket, AudioPlayerEndReason)
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
    /// The downloads changed (a task moved, a song finished downloading).
    case downloadsChanged(DownloadsOverview)
    /// A wait set by ``RadioEffect/scheduleSleep(after:token:endsIn:)`` is over.
    case sleepTimer(token: Int)
    /// When the sleep timer runs out (for front ends to show the time left).
    case sleepScheduled(at: Date)
    /// The history changed: its newest songs (see ``RadioSession/historyShown``), which
    /// front ends show and `past` commands act on.
    case historyChanged([ListenEntry])
}
