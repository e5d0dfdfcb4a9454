import ArgumentParser
import Settings
import Foundation
import Logging
import Radio
import StationLink
import TerminalUI

/// The manual's own sections, in mdoc, each made from what the program uses: the key
/// table (`Keymap`), the command table (`CommandWord.table`), the configuration's
/// reference (``ConfigReference``), the paths ``Paths`` resolves, the exit codes ``Mhz``
/// returns.
enum ManualSections {
    /// The titles, in the page's order.
    static let titles = ["KEYS", "LYRICS", "LOUDNESS", "CONFIGURATION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES",
                         "SEE ALSO"]

    /// Every section, as the lines of the page.
    static func all(keymap: Keymap = .standard) -> [String] {
        keys(keymap) + lyrics() + loudness() + configuration(keymap) + environment() + files() + exitStatus() + examples()
            + seeAlso()
    }

    /// LYRICS: where the station finds a song's lyrics and how mhz shows them.
    static func lyrics() -> [String] {
        [ManualPage.section("LYRICS"),
         ManualPage.text("The station reads a song's lyrics from a file beside it with the same base name (Song.lrc)"),
         ManualPage.text("or from its tags (ID3 SYLT and USLT, Vorbis and FLAC LYRICS or UNSYNCEDLYRICS, MP4 ©lyr)"),
         ManualPage.text("and answers Douban's lyric call (POST /v2/fm/lyric). mhz asks every station for each song's"),
         ManualPage.text("lyrics and plays on without them when it has none; headless, it prints"),
         ManualPage.text("{\"event\":\"lyric\",\"sid\":…,\"text\":…,\"time\":…} as each LRC line is reached, in order."),
         ManualPage.text("The terminal shows the line being sung under the song; y opens the whole sheet with that line"),
         ManualPage.text("marked (lyrics without time tags as plain text), and } and { show a song's lines 0.5 s earlier"),
         ManualPage.text("or later, kept for that song (see"),
         ".Sx KEYS ) ."]
    }

    /// LOUDNESS: how the station levels its songs and how mhz and live channels play them.
    static func loudness() -> [String] {
        [ManualPage.section("LOUDNESS"),
         ManualPage.text("The station hears each song once in the background and measures its loudness by EBU R 128"),
         ManualPage.text("(libebur128), each album's too. It levels what it serves to [station] loudness_target (-18"),
         ManualPage.text("LUFS, ReplayGain 2.0's level), by each track or each album ([station] loudness), never raising"),
         ManualPage.text("a song past -1 dBTP: its MP3s (what Douban clients and browsers get) and its live channels"),
         ManualPage.text("are made at the level; format=original stays the file, and the song's answer carries the gain"),
         ManualPage.text("(\"gain\" in dB) for the player. mhz plays each song at that gain ([radio] loudness), so"),
         ManualPage.text("seeking, pausing and the volume keys are as ever. A song not yet heard plays as it is."),
         ManualPage.text("Live channels overlap the end of one song and the start of the next ([live] crossfade, 3 s"),
         ManualPage.text("on an equal-power curve); mhz's own player plays songs gapless, without crossfading."),
        ]
    }

    /// KEYS: the table in effect, grouped as the help screen groups it, then the commands.
    static func keys(_ keymap: Keymap) -> [String] {
        var lines = [ManualPage.section("KEYS"),
                     "The terminal interface reads these keys; its help screen lists the table in effect.",
                     "The word in parentheses is the action's name, by which the",
                     ".Cm [keys]",
                     "table of the configuration file binds other keys to it (see",
                     ".Sx CONFIGURATION ) ."]
        for group in HelpView.sections {
            lines.append(".Ss " + ManualPage.argument(group.title))
            let rows = keymap.bindings.filter { group.contexts.contains($0.context) }
            lines += ManualPage.list(rows.map { binding in
                let keys = binding.keys.isEmpty ? "(none)" : binding.keys.map(\.name).joined(separator: ", ")
                return ("Sy " + ManualPage.argument(keys),
                        [ManualPage.text(binding.help), ".Pq Cm " + ManualPage.argument(binding.action)])
            })
        }
        return lines + commands(CommandWord.table)
    }

    /// The commands of `table` (``CommandWord/table`` but in tests), as headless stdin,
    /// `mhz ctl` and `[keys]` command lines take them: usage, what each does, its other
    /// spellings, and the keys of its row.
    static func commands(_ table: [CommandWord]) -> [String] {
        var lines = [".Ss Commands",
                     "Headless stdin, mhz ctl, and a key bound to a command line in",
                     ".Cm [keys]",
                     "take these commands; the word is case-insensitive."]
        lines += ManualPage.list(table.map { row in
            var body = [ManualPage.text(row.summary + ".")]
            if !row.aliases.isEmpty { body.append(ManualPage.text("Also " + row.aliases.joined(separator: ", ") + ".")) }
            if row.interactiveOnly {
                body.append(ManualPage.text("Headless stdin and mhz ctl answer that it is not available; mhz \(row.word) does it."))
            }
            let keys = row.keys.map { key in
                key.keys.joined(separator: " ") + (key.name == row.word ? "" : " (\(key.name))")
            }
            if !keys.isEmpty { body.append(ManualPage.text("Default keys: " + keys.joined(separator: ", ") + ".")) }
            return ("Cm " + ManualPage.argument(row.usage), body)
        })
        return lines
    }

    /// CONFIGURATION: every key of every table, what it takes, its default; then `[keys]`.
    static func configuration(_ keymap: Keymap) -> [String] {
        var lines = [ManualPage.section("CONFIGURATION"),
                     "mhz reads its settings from",
                     ".Pa $XDG_CONFIG_HOME/mhz/config.toml",
                     "(or the file",
                     ".Fl -config",
                     "names), in TOML. Every key is optional, and a command-line option wins over its key.",
                     "A key mhz does not know, or a value it cannot take, stops it with one line that names the key",
                     "and what it accepts."]
        for table in ConfigReference.tables {
            if let table { lines.append(".Ss " + ManualPage.argument("[\(table)]")) }
            lines += ManualPage.list(ConfigReference.entries.filter { $0.table == table }.map { entry in
                ("Cm " + ManualPage.argument(entry.name) + " Ns = Ns Ar " + ManualPage.argument(entry.value),
                 [ManualPage.text(entry.summary), ManualPage.text("Default: \(entry.fallback).")])
            })
        }
        lines += [".Ss [keys]",
                  "Each entry binds keys in one of two forms.",
                  ManualPage.text("An action name of KEYS = keys: one key (n, space, left, F5, ctrl+l), several separated by"),
                  ManualPage.text("spaces (\"? h\"), or none to unbind; they replace the action's keys, and a key an entry claims"),
                  ManualPage.text("is taken from the default that had it. A key = a command line, as headless stdin reads it"),
                  ManualPage.text("(\"ctrl+r\" = \"channel -3\", \"9\" = \"volume 90\"): the key sends that command."),
                  "The actions:",
                  ManualPage.text(Keymap.actionNames.joined(separator: ", ") + ".")]
        lines += Keymap.formerNames.map { former, current in
            ManualPage.text("\(former), the former name of \(current), is still accepted.")
        }
        return lines
    }

    /// ENVIRONMENT.
    static func environment() -> [String] {
        let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
        let items: [(String, [String])] = [
            ("Ev HOME", ["The home directory: ~ in paths, and the folders below when their variables are unset."]),
            ("Ev XDG_CONFIG_HOME", ["Where the configuration file is looked for; default ~/.config."]),
            ("Ev XDG_DATA_HOME", ["Where the data directory is; default ~/.local/share."]),
            ("Ev XDG_RUNTIME_DIR", ["Where the control socket is, and where the session bus is looked for."]),
            ("Ev MHZ_LOG_LEVEL", [ManualPage.text("What mhz.log, and mhz serve's standard error, record: \(levels); "
                                                   + "default info (mhz serve's progress on a scan and on its sound analysis, "
                                                   + "at most every 10 s, is info).")]),
            ("Ev http_proxy , https_proxy , all_proxy , no_proxy",
             ["The proxy for the station's API when the configuration names none (the proxy key)."]),
            ("Ev DBUS_SESSION_BUS_ADDRESS", ["The session bus for MPRIS and notifications."]),
            ("Ev TERM", ["The terminal interface needs it, and a terminal on stdin and stdout; else use --headless."]),
            ("Ev DISPLAY , WAYLAND_DISPLAY", ["The display --video shows a video's picture on."]),
            ("Ev MHZ_EVENT", ["Set for the program of [hooks] event: the event's name, also its argument."]),
        ]
        return [ManualPage.section("ENVIRONMENT")] + ManualPage.list(items.map { (tag: $0.0, body: $0.1) })
    }

    /// FILES: where ``Paths`` puts each, with the variables left as variables.
    static func files() -> [String] {
        let marks = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"]
        var environment = ["HOME": "/HOME"]
        for mark in marks { environment[mark] = "/" + mark }
        // No option is required, so parsing none cannot fail.
        let paths = Paths(options: try! GlobalOptions.parse([]), environment: environment)
        func shown(_ url: URL) -> String {
            var path = url.path
            for mark in marks where path.hasPrefix("/" + mark) { path = "$" + path.dropFirst() }
            return path
        }
        let sessions = SessionStore(directory: paths.dataDirectory)
        let items: [(URL, String)] = [
            (paths.configFile, "The configuration (see CONFIGURATION)."),
            (paths.dataDirectory, "The data directory (--data-dir)."),
            (paths.database, "Playback positions, the reports waiting for the station, downloads, trashed songs, the history of songs played."),
            (paths.logFile, "The log, without passwords, tokens or cookies."),
            (sessions.sessionFile, "The login: tokens, never the password (mode 0600)."),
            (sessions.cookieFile, "The web family's cookies (mode 0600)."),
            (DownloadSettings().folder(paths: paths), "Downloaded songs, unless [downloads] dir says otherwise."),
            (paths.coverDirectory, "Song covers fetched from the station."),
            (paths.stationDirectory, "The station's data, of the embedded one and of mhz serve: accounts, what listeners taught it, MP3 transcodes, the demo library, the live channels' segments (live/)."),
            (paths.controlSocket, "The control socket of the mhz playing (mhz ctl); another data directory has its own."),
        ]
        return [ManualPage.section("FILES")]
            + ManualPage.list(items.map { (tag: "Pa " + ManualPage.argument(shown($0.0)), body: [ManualPage.text($0.1)]) })
    }

    /// EXIT STATUS: the codes ``Mhz`` exits with.
    static func exitStatus() -> [String] {
        [ManualPage.section("EXIT STATUS")] + ManualPage.list([
            ("\(ExitCode.success.rawValue)", ["Success; for mhz download, every download completed."]),
            ("\(ExitCode.failure.rawValue)", ["A runtime error, told in one line on standard error; for mhz download,",
                                               "a download that failed (one line each)."]),
            ("\(Mhz.usageExitCode.rawValue)", ["A usage error: an unknown option, a value it cannot take."]),
        ].map { (tag: $0.0, body: $0.1) })
    }

    /// EXAMPLES.
    static func examples() -> [String] {
        let commands: [(String, String)] = [
            ("Play from the embedded station over ~/Music:", "mhz"),
            ("Serve the same station to other clients, make an account, and play from it:",
             "mhz serve --add-user ana"),
            ("", "mhz login --server http://127.0.0.1:7650 --username ana"),
            ("", "mhz --server http://127.0.0.1:7650"),
            ("Listen to channel 1 of that station live, as everyone listening hears it (← → look back, e back to live):",
             "mhz --live 1 --server http://127.0.0.1:7650"),
            ("", "mpv http://127.0.0.1:7650/live/1.m3u8"),
            ("Serve it to the household's browsers: open http://<this machine>:7650/ for the web player:",
             "mhz serve --host 0.0.0.0"),
            ("Skip the first song, headless, and print each event as a JSON line:",
             "echo skip | mhz --headless --audio-output null"),
            ("Download every liked song for offline listening, then play them:", "mhz download --liked"),
            ("", "mhz --channel offline"),
            ("Like the song a running mhz plays:", "mhz ctl like"),
            ("The last ten songs played, how each left (ended, skipped, trashed, quit) and whether it was liked:",
             "mhz history --limit 10"),
            ("Like a song heard earlier (its sid from mhz history --json), leaving the song playing alone:",
             "mhz ctl past like 41"),
            ("Scrobble to Last.fm (with lastfm_api_key and lastfm_api_secret in [scrobble]), and see what waits:",
             "mhz scrobble login lastfm"),
            ("", "mhz scrobble status"),
        ]
        var lines = [ManualPage.section("EXAMPLES")]
        for (words, command) in commands {
            if !words.isEmpty { lines += [".Pp", ManualPage.text(words)] }
            lines.append(".Dl " + ManualPage.argument(command))
        }
        lines += [".Pp", "A configuration that plays from a station on this machine, asks it for MP3 at 128 kbit/s,",
                  "and makes Ctrl-R switch to the red-heart channel:",
                  ".Bd -literal -offset indent",
                  "server = \"http://127.0.0.1:7650\"", "", "[station]", "quality = 128", "",
                  "[keys]", "\"ctrl+r\" = \"channel -3\"",
                  ".Ed"]
        return lines
    }

    /// SEE ALSO.
    static func seeAlso() -> [String] {
        [ManualPage.section("SEE ALSO"), ".Xr mpv 1 ,", ".Xr playerctl 1"]
    }
}
