import Scrobble

/// The words for scrobbling's failures: one line each, saying what happened and what to do.
enum ScrobbleText {
    /// The service's name as people write it.
    static func name(_ service: ScrobbleService) -> String {
        switch service {
        case .listenBrainz: "ListenBrainz"
        case .lastFM: "Last.fm"
        }
    }

    /// What to do when `service` refuses who is asking.
    static func remedy(_ service: ScrobbleService) -> String {
        switch service {
        case .listenBrainz: "check [scrobble] listenbrainz_token, or run `mhz scrobble login listenbrainz`"
        case .lastFM: "check [scrobble] lastfm_api_key and lastfm_api_secret, then run `mhz scrobble login lastfm`"
        }
    }

    /// A failure as words: the status and the service's message, or why there was none.
    static func describe(_ failure: ScrobbleFailure) -> String {
        switch failure {
        case .unreachable(let why): "no answer (\(why))"
        case .busy(let status, let message), .credentials(let status, let message), .refused(let status, let message):
            "HTTP \(status)" + (message.isEmpty ? "" : ", \(message)")
        case .badAnswer(let why): why
        case .storage(let why, let full): (full ? "the disk is full: " : "the database failed: ") + why
        }
    }

    /// The line for the service refusing the credentials: scrobbles wait for the next run.
    static func credentialsRefused(_ service: ScrobbleService, _ failure: ScrobbleFailure) -> String {
        "\(name(service)) refused the credentials (\(describe(failure))); scrobbles wait in the outbox: \(remedy(service))"
    }

    /// The line for one scrobble the service refused for good.
    static func refused(_ service: ScrobbleService, _ action: ScrobbleAction, _ failure: ScrobbleFailure) -> String {
        "\(name(service)) refused the \(action.kind) of \(action.song.artist) – \(action.song.title) (\(describe(failure))); dropped"
    }
}
