import Companions
import Radio
import TerminalUI

extension EventWords {
    /// The terminal UI's words: a JSON line's `status_text` is what the screen shows, its
    /// `message` what the UI would say.
    static let terminal = EventWords(status: { NowPlayingView.statusText($0) },
                                     source: { NowPlayingView.sourceText($0) },
                                     error: { ErrorText.describe($0) })
}

extension EventJSON {
    /// The JSON line for a radio event with the terminal UI's words (headless stdout, the
    /// control socket, the event hook).
    static func line(_ event: RadioEvent) -> String {
        line(event, words: .terminal)
    }
}
