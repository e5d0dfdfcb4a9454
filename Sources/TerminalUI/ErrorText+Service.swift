import Radio

/// Who asked the station when a failure came back, which decides how a failure's words
/// name the station and what they advise: the radio asks again by itself, while a login in
/// the dialog or one command of the command line was asked once, by the listener, who asks
/// again.
public enum StationAsker: Sendable, Equatable {
    /// The radio (the terminal UI's status line, headless mode's error events): mhz tries
    /// again by itself. `loginKey` is the label of the terminal UI's login key; without one,
    /// logging in is advised as `mhz login`.
    case radio(loginKey: String?)
    /// A login from the terminal UI's dialog, which stays open to try again.
    case loginDialog
    /// One command of the command line (`mhz channels`, `mhz download`, `mhz login`, and
    /// `mhz --live`, which stops when its station refuses the channel at the start); the
    /// station is named by `server`, its URL as the listener gave it.
    case command(server: String)
}

extension ErrorText {
    /// One line for a failure talking to the station, asked by `asker`: what happened, then
    /// what to do. The terminal UI's lines read "Station … — … .", the command line's
    /// "SERVER …: …", as the rest of each one's words do.
    public static func describe(_ failure: ServiceFailure, for asker: StationAsker) -> String {
        switch asker {
        case .command(let server):
            let (what, todo) = words(failure, station: server, for: asker)
            return "\(what): \(todo)"
        case .radio, .loginDialog:
            let (what, todo) = words(failure, station: "Station", for: asker)
            return "\(capitalized(what)) — \(todo)."
        }
    }

    /// What a live channel's refusal says happened, in the same words as any failure of
    /// its kind: "Station unreachable (…)", "Station does not broadcast it" for a 404.
    static func liveRefusal(_ failure: ServiceFailure) -> String {
        if failure == .httpStatus(404) { return "Station does not broadcast it" }
        let (what, _) = words(failure, station: "Station", for: .radio(loginKey: nil))
        return capitalized(what)
    }

    /// `text` with its first letter a capital, as the terminal UI's lines begin.
    private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// Each failure's words, once: what happened (said of `station` where the station did
    /// it) and what to do (for `asker`). The advice differs by asker only where who tries
    /// again differs; the login dialog words the answers that concern a login its own way.
    private static func words(_ failure: ServiceFailure, station: String,
                              for asker: StationAsker) -> (what: String, todo: String) {
        let dialog = asker == .loginDialog
        // Only the radio tries again by itself; the dialog's and a command's listener does.
        let retrying: Bool
        let logIn: String
        switch asker {
        case .radio(let key):
            retrying = true
            logIn = key.map { "press \($0) to log in again" } ?? "log in again with `mhz login`"
        case .loginDialog, .command:
            retrying = false
            logIn = "log in again with `mhz login`"
        }
        switch failure {
        case .unreachable(let reason):
            return ("\(station) unreachable\(detail(reason))",
                    retrying ? "check --server or your network; retrying"
                        : dialog ? "check your network, then try again" : "check --server and your network, then try again")
        case .untrusted(let reason):
            return ("\(station) has a TLS certificate that is not trusted\(detail(reason))",
                    "check --server; set verify_tls = false in the config only if you trust this server")
        case .busy(let status):
            let advice = switch status {
            case 429: retrying ? "mhz waits and tries again; nothing to do" : "wait a minute, then try again"
            case 408: retrying ? "retrying; check your network if it keeps happening" : "wait a moment, then try again"
            default: retrying ? "the server is having trouble; retrying" : "wait a moment, then try again"
            }
            return ("\(station) \(answered(status: status))", advice)
        case .httpStatus(let status) where dialog:
            return ("\(station) answered the login with HTTP \(status)", "check --server and --api (app or web)")
        case .httpStatus(401):
            return ("\(station) refused access (HTTP 401)", logIn)
        case .httpStatus(403):
            // Douban answers 403 both to a lapsed login and to a client it is rate limiting.
            return ("\(station) refused access (HTTP 403)",
                    "\(logIn); if you are logged in, it may be limiting requests: wait a few minutes")
        case .httpStatus(let status) where failure.isStationDown:
            return ("\(station) failed (HTTP \(status))",
                    retrying ? "the server is having trouble; retrying" : "try again later")
        case .httpStatus(let status):
            return ("\(station) answered HTTP \(status)", "check --server and --api (app or web)")
        case .malformed(let reason):
            return ("\(station) sent an answer mhz cannot read\(detail(reason))",
                    "check that --server and --api (app or web) match the station")
        case .rejected(let reason) where dialog:
            return ("\(station) refused the login\(detail(reason))", "check the account and password, then try again")
        case .rejected(let reason):
            return ("\(station) refused the request\(detail(reason))",
                    retrying ? "try another channel, or \(logIn)" : "check --server and --api (app or web), or \(logIn)")
        case .expired where dialog:
            return ("\(station) turned the login away as expired", "try again")
        case .expired:
            let again = if case .radio(nil) = asker { "`mhz login` signs you in again" } else { logIn }
            return ("login session expired", retrying ? "playing on anonymously; \(again)" : logIn)
        case .needsLogin where dialog:
            return ("\(station) wants a login first", "fill in the account and password, then try again")
        case .needsLogin(let channel):
            // -3 is the red-heart channel (docs/PROTOCOL.md §7); RadioAPI's constant is
            // out of this layer's reach.
            let name = channel == "-3" ? "the red-heart channel" : "channel \(quoted(channel))"
            let login = if case .radio(let key?) = asker { "press \(key) to log in" } else { "run `mhz login`" }
            return ("\(name) needs a login",
                    "\(login), or pick another channel" + (retrying ? "" : " (`mhz channels` lists them)"))
        }
    }
}

extension ErrorText {
    /// What a server did when it answered `status` and the request may pass later, after
    /// the server's name: the one wording of a "not now" or a server error, which the
    /// radio's lines above and the downloads' lines (`mhz download`) both say.
    public static func answered(status: Int) -> String {
        switch status {
        case 429: "is limiting requests (HTTP 429)"
        case 408: "timed out waiting for the request (HTTP 408)"
        default:
            if case .busy = ServiceFailure(status: status) { "is busy (HTTP \(status))" } else { "failed (HTTP \(status))" }
        }
    }
}
