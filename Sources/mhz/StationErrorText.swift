import Station

/// One line per station failure, for the CLI.
enum StationErrorText {
    static func describe(_ error: StationError) -> String {
        "embedded station: \(error)"
    }
}
