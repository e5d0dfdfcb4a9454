import Foundation
import RadioAPI

/// How far a listener's verdicts follow what the station learned of it: the confidence
/// with which ``ListenerTaste`` lets the listener's favourites win.
///
/// Each like, skip or trash is compared with the score the song had before the report: a
/// like (+1), a skip or trash (−1), times `tanh(score)`, summed with a memory of ``memory``
/// per report, over the sum of `|tanh(score)|`. A natural end says too little to count
/// (a listener plays through most of what it neither loves nor minds). A listener who likes
/// what scored high and skips what scored low agrees; one whose verdicts are random
/// whatever the song agrees about 0 or below (it skips more than it likes). The confidence
/// is that agreement over ``trustedAt``, within ``floor``…1: lists of a listener the
/// station cannot read lean on its favourites less and spread over more artists, rather
/// than amplifying chance hearts.
///
/// Kept in memory only: a restarted station starts from the prior (full confidence) and
/// learns it again within a few dozen reports.
package struct ProfileTrust: Sendable, Equatable {
    /// How much of the past each report keeps: about the last 20 reports count.
    package static let memory = 0.95
    /// The prior, in reports of full agreement.
    package static let prior = 2.0
    /// The agreement at which the confidence is full.
    package static let trustedAt = 0.4
    /// The least confidence.
    package static let floor = 0.2

    private var agreement = prior
    private var weight = prior

    /// Full confidence: a listener never heard.
    package init() {}

    /// Takes in a report of `type` about a song that scored `predicted` before it.
    package mutating func learn(_ type: ReportType, predicted: Double) {
        let verdict: Double
        switch type {
        case .rate: verdict = 1
        case .skip, .ban: verdict = -1
        case .end, .unrate, .new, .playing: return
        }
        let lean = tanh(predicted)
        agreement = agreement * Self.memory + verdict * lean
        weight = weight * Self.memory + abs(lean)
    }

    /// The confidence, ``floor``…1.
    package var confidence: Double {
        guard weight > 0 else { return 1 }
        return min(1, max(Self.floor, agreement / weight / Self.trustedAt))
    }
}
