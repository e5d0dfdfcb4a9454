import RadioAPI

/// The station's answer to a listener's word on a live channel's song, how the vote to
/// skip it stands: RadioAPI's wire model itself, named here for the front ends, which see
/// the radio and not the wire (docs/PROTOCOL.md §11).
public typealias LiveTally = LiveFeedbackAnswer
