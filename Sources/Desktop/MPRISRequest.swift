import Radio

/// What a method call or a property write on the MPRIS interfaces asks of the radio: a pure
/// function of the call and the properties published, so every rule of the spec about when a
/// call "has no effect" is in one place and unit-tested.
enum MPRISRequest: Sendable, Equatable {
    /// Send this command to the radio.
    case command(RadioCommand)
    /// Nothing to do (the spec's "has no effect"); the call succeeds.
    case nothing
    /// Refuse with `org.freedesktop.DBus.Error.NotSupported`.
    case notSupported
    /// Refuse with `org.freedesktop.DBus.Error.InvalidArgs`.
    case invalidArguments

    /// The request of method `member` of `interface`, called with `arguments`, while
    /// `current` is published.
    static func method(_ member: String, of interface: String, arguments: [BusValue],
                       current: MPRISProperties) -> MPRISRequest {
        switch (interface, member) {
        case (MPRISProperties.rootInterface, "Quit"): return .command(.quit)
        case (MPRISProperties.rootInterface, "Raise"): return .nothing
        case (MPRISProperties.playerInterface, "PlayPause"): return .command(.toggle)
        case (MPRISProperties.playerInterface, "Play"): return .command(.resume)
        // A radio cannot stop and start again where it was: Stop pauses.
        case (MPRISProperties.playerInterface, "Pause"), (MPRISProperties.playerInterface, "Stop"):
            return .command(.pause)
        case (MPRISProperties.playerInterface, "Next"):
            // "If CanGoNext is false, attempting to call this method should have no effect."
            return current.canGoNext ? .command(.skip) : .nothing
        case (MPRISProperties.playerInterface, "Previous"): return .nothing
        case (MPRISProperties.playerInterface, "Seek"):
            guard case .int64(let offset)? = arguments.first else { return .invalidArguments }
            // "If the CanSeek property is false, this has no effect."
            return current.canSeek ? .command(.seek(.relative(Double(offset) / 1_000_000))) : .nothing
        case (MPRISProperties.playerInterface, "SetPosition"):
            guard arguments.count == 2, case .objectPath(let track) = arguments[0],
                  case .int64(let position) = arguments[1] else { return .invalidArguments }
            // "If the Position argument is less than 0, do nothing. If the Position argument is
            // greater than the track length, do nothing." And a stale track id is ignored, so
            // a seek meant for the previous song does not land in this one.
            guard current.canSeek, track == current.metadata.trackID, position >= 0,
                  position <= current.metadata.length ?? Int64.max else { return .nothing }
            return .command(.seek(.absolute(Double(position) / 1_000_000)))
        case (MPRISProperties.playerInterface, "OpenUri"): return .notSupported
        default: return .notSupported
        }
    }

    /// The request of writing `value` to `property` of the player interface.
    static func write(_ property: String, value: BusValue?) -> MPRISRequest {
        switch property {
        case "Volume":
            guard case .double(let volume)? = value, volume.isFinite else { return .invalidArguments }
            // "If a negative value is passed, the volume should be set to 0.0"; mhz's volume
            // is a percentage and stops at 100.
            return .command(.volume(Int((min(max(volume, 0), 1) * 100).rounded())))
        case "Rate":
            return .nothing
        default:
            return .notSupported
        }
    }
}
