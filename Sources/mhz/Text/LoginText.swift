import Settings
import StationLink
import TerminalUI

/// One line per login failure, for the command line: what happened and what to do.
public enum LoginText {
    /// Words for `failure` when logging in as `account` to `server`.
    static func describe(_ failure: LoginFailure, account: String, server: String) -> String {
        switch failure {
        case .service(let failure):
            return ErrorText.describe(failure, for: .command(server: server))
        case .refused(let word):
            switch word {
            case "wrong_password":
                return "wrong password for \(account) on \(server): run `mhz login` again"
            case "invalidate_email", "wrong_email":
                return "\(server) has no account with the e-mail address \(account): check it, or give your user name"
            case "invalid_user_name":
                return "\(server) has no account named \(account): check it, or give your e-mail address"
            case "wrong_version":
                return "\(server) does not accept this client (wrong_version): set app_name in the config (see Config/douban-app.toml)"
            case "too_many_attempts":
                return "\(server) refused the login: too many failed logins from this address (too_many_attempts): "
                    + "wait a quarter of an hour, then run `mhz login` again"
            default:
                return "\(server) refused the login (\(word))"
            }
        case .refusedWithMessage(let code, let message):
            let reason = [message, code.map { "error \($0)" }].compactMap { $0 }.filter { !$0.isEmpty }
                .joined(separator: ", ")
            if code == 1011 { return "\(server) refused the login: the captcha was wrong (\(reason)): run `mhz login` again" }
            // mhz's own station: an address that failed too often (docs/PROTOCOL.md §9).
            if code == 1020 {
                return "\(server) refused the login: too many failed logins from this address (\(reason)): "
                    + "wait a quarter of an hour, then run `mhz login` again"
            }
            return "\(server) refused the login (\(reason.isEmpty ? "no reason given" : reason)): check the account and password, then run `mhz login` again"
        case .noSessionCookie:
            return "\(server) accepted the login but set no session cookie: check --server and --api web"
        case .storage(let what):
            return "logged in, but the session could not be saved (\(what)): check the data directory (--data-dir)"
        }
    }
}
