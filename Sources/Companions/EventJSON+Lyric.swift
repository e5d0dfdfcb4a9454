import Radio

extension EventJSON {
    /// `{"event":"lyric","sid":…,"text":…,"time":…}`: a lyric line became current; `time`
    /// is when the line begins in the song, in seconds, as its lyrics time it.
    public static func lyric(_ change: LyricTracker.Change) -> String {
        serialize(["event": .string(EventName.lyric.rawValue), "sid": .string(change.sid), "time": .number(change.time),
                   "text": .string(change.text)])
    }
}
