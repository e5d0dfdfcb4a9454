import Foundation
import Radio
import Testing
@testable import TerminalUI

/// `ErrorText.describe` is shared by the terminal UI and the headless CLI: one line per
/// error, saying what happened and, after the dash, what to do.
@Suite struct ErrorTextTests {
    /// One of every case, with carried text where the case has some.
    static let everyError: [RadioError] = [
        .service(.unreachable("connection refused")),
        .service(.httpStatus(401)),
        .service(.httpStatus(403)),
        .service(.httpStatus(404)),
        .service(.httpStatus(502)),
        .service(.busy(429)),
        .service(.busy(503)),
        .service(.untrusted("SSL certificate problem: self-signed certificate")),
        .service(.needsLogin(channel: "-3")),
        .service(.malformed("expected JSON, got <html>")),
        .service(.rejected("invalid_channel")),
        .service(.expired),
        .player(.loadFailed("HTTP 404")),
        .player(.unavailable("ao pulse: cannot connect")),
        .player(.mediaUnavailable(status: 403)),
        .player(.connectionLost),
        .emptyChannel(ChannelInfo(id: "1", name: "华语MHz")),
        .emptyChannel(ChannelInfo(id: "-3", name: "红心兆赫")),
        .unknownChannel("999"),
        .nothingPlaying,
        .unsupported("login"),
        .notLive("0"),
        .liveRefused("5", .httpStatus(404)),
        .liveRefused("5", .unreachable("Couldn't connect to server")),
        .liveRefused("5", .busy(503)),
        .notOnLive("login", returnsToRadio: true),
        .notOnLive("history", returnsToRadio: false),
        .noRadio,
        .alreadyRadio,
    ]

    @Test(arguments: everyError)
    func isOneLineSayingWhatToDo(error: RadioError) {
        let text = ErrorText.describe(error)
        #expect(!text.isEmpty)
        #expect(!text.contains("\n") && !text.contains("\r"))
        let parts = text.components(separatedBy: " — ")
        #expect(parts.count == 2, "what happened — what to do: \(text)")
        #expect(parts.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(text.hasSuffix("."))
    }

    @Test func exactTexts() {
        #expect(ErrorText.describe(.service(.unreachable("connection refused")))
            == "Station unreachable (connection refused) — check --server or your network; retrying.")
        #expect(ErrorText.describe(.service(.httpStatus(403)))
            == "Station refused access (HTTP 403) — log in again with `mhz login`; if you are logged in, "
            + "it may be limiting requests: wait a few minutes.")
        #expect(ErrorText.describe(.service(.httpStatus(503)))
            == "Station failed (HTTP 503) — the server is having trouble; retrying.")
        #expect(ErrorText.describe(.service(.httpStatus(404)))
            == "Station answered HTTP 404 — check --server and --api (app or web).")
        #expect(ErrorText.describe(.service(.expired))
            == "Login session expired — playing on anonymously; `mhz login` signs you in again.")
        #expect(ErrorText.describe(.player(.loadFailed("")))
            == "Could not play this song — skip to the next one; if every song fails, check the station's media files.")
        #expect(ErrorText.describe(.noRadio)
            == "This live channel was not entered from the radio, so there is none to go back to — "
            + "quit and start mhz without --live.")
        #expect(ErrorText.describe(.unknownChannel("999"))
            == "This station has no channel “999” — `mhz channels` lists the ids.")
        #expect(ErrorText.describe(.emptyChannel(ChannelInfo(id: "1", name: "华语MHz")))
            == "Channel “华语MHz” has no songs right now — choose another channel; retrying meanwhile.")
        #expect(ErrorText.describe(.emptyChannel(ChannelInfo(id: "-3", name: "红心兆赫")))
            == "The red-heart channel has no liked songs yet — like songs on other channels first; "
            + "retrying meanwhile.")
        #expect(ErrorText.describe(.liveRefused("5", .httpStatus(404)))
            == "No live broadcast of channel “5”: Station does not broadcast it — "
            + "what played before plays on; `mhz channels` marks the channels on the air.")
        #expect(ErrorText.describe(.liveRefused("5", .unreachable("Couldn't connect to server")))
            == "No live broadcast of channel “5”: Station unreachable (Couldn't connect to server) — "
            + "what played before plays on; `mhz channels` marks the channels on the air.")
        #expect(ErrorText.describe(.nothingPlaying)
            == "Nothing is playing yet — wait for a song to start, or choose a channel.")
    }

    @Test func carriedTextIsFlattenedOntoTheLine() {
        let text = ErrorText.describe(.service(.malformed("line one\nline two\t\u{1B}[31m  three")))
        #expect(text == "Station sent an answer mhz cannot read (line one line two [31m three) — "
            + "check that --server and --api (app or web) match the station.")
    }

    @Test func keymapErrorsNameTheAction() {
        #expect(ErrorText.describe(KeymapError.invalidKey(action: "skip", key: "sapce"))
            == "“sapce” is not a key (for “skip”) — use one character, a name such as space, enter, esc, "
            + "left, pgdn, F5, or ctrl+l; \"none\" unbinds.")
        #expect(ErrorText.describe(KeymapError.duplicateKey(action: "trash", key: "x", otherAction: "skip"))
            == "“trash” and “skip” are both bound to x — give one of them another key.")
        let unknown = ErrorText.describe(KeymapError.unknownAction("jump"))
        #expect(unknown.hasPrefix("“jump” in [keys] is neither an action nor a key — use an action (toggle, skip, like,"))
        #expect(unknown.hasSuffix(", list-filter, downloads-up, downloads-down, downloads-pause, downloads-cancel,"
            + " downloads-retry, downloads-close, lyrics-up, lyrics-down, lyrics-page-up, lyrics-page-down, lyrics-close,"
            + " history-up, history-down, history-page-up, history-page-down, history-like, history-trash,"
            + " history-download, history-close) = keys, or a key = a command line."))
    }
}
