import CMpv

/// An `mpv_event` copied into Swift values. client.h: the returned struct and "all memory
/// referenced by it will be automatically released by the API on the next mpv_wait_event()
/// call", so nothing here may point into mpv's memory.
enum MPVEvent: Sendable, Equatable {
    /// `MPV_EVENT_START_FILE`: mpv begins loading the entry.
    case startFile(entry: Int64)
    /// `MPV_EVENT_FILE_LOADED`: the current entry is open and decoding is about to start.
    case fileLoaded
    /// `MPV_EVENT_PLAYBACK_RESTART`: playback (re)started after loading or a seek.
    case playbackRestart
    /// `MPV_EVENT_SEEK`: mpv began executing a seek.
    case seek
    /// `MPV_EVENT_END_FILE`.
    case endFile(MPVEndFile)
    /// `MPV_EVENT_PROPERTY_CHANGE` of an observed property; `.none` means unavailable.
    case propertyChanged(MPVProperty, MPVNode)
    /// `MPV_EVENT_LOG_MESSAGE` (requested at warn level; see `StreamLogClassifier`).
    case logMessage(MPVLogMessage)
    /// `MPV_EVENT_COMMAND_REPLY` of an asynchronous command.
    case commandReply(id: UInt64, error: Int32)
    /// `MPV_EVENT_SHUTDOWN`: the core is quitting; no further events follow.
    case shutdown
    /// `MPV_EVENT_NONE`: a wakeup or a timeout.
    case none
    /// Any other event, by mpv's name for it (`audio-reconfig`, `idle`, …).
    case other(String)

    /// Copies the event `mpv_wait_event` returned.
    init(copying event: mpv_event) {
        switch event.event_id {
        case MPV_EVENT_NONE: self = .none
        case MPV_EVENT_SHUTDOWN: self = .shutdown
        case MPV_EVENT_FILE_LOADED: self = .fileLoaded
        case MPV_EVENT_PLAYBACK_RESTART: self = .playbackRestart
        case MPV_EVENT_SEEK: self = .seek
        case MPV_EVENT_START_FILE:
            let data = event.data.assumingMemoryBound(to: mpv_event_start_file.self).pointee
            self = .startFile(entry: data.playlist_entry_id)
        case MPV_EVENT_END_FILE:
            self = .endFile(MPVEndFile(event.data.assumingMemoryBound(to: mpv_event_end_file.self).pointee))
        case MPV_EVENT_PROPERTY_CHANGE:
            let data = event.data.assumingMemoryBound(to: mpv_event_property.self).pointee
            guard let name = data.name, let property = MPVProperty(rawValue: String(cString: name)) else {
                self = .other("property-change"); return
            }
            self = .propertyChanged(property, Self.value(format: data.format, data: data.data))
        case MPV_EVENT_COMMAND_REPLY:
            self = .commandReply(id: event.reply_userdata, error: event.error)
        case MPV_EVENT_LOG_MESSAGE:
            self = .logMessage(MPVLogMessage(event.data.assumingMemoryBound(to: mpv_event_log_message.self).pointee))
        default:
            self = .other(mpv_event_name(event.event_id).map { String(cString: $0) } ?? "unknown")
        }
    }

    /// Reads a property value in the formats `MPVProperty.observedFormat` asks for.
    private static func value(format: mpv_format, data: UnsafeMutableRawPointer?) -> MPVNode {
        guard let data else { return .none }
        switch format {
        case MPV_FORMAT_DOUBLE: return .double(data.load(as: Double.self))
        case MPV_FORMAT_FLAG: return .flag(data.load(as: Int32.self) != 0)
        case MPV_FORMAT_INT64: return .int64(data.load(as: Int64.self))
        case MPV_FORMAT_NODE: return MPVNode(copying: data.load(as: mpv_node.self))
        // MPV_FORMAT_NONE: "the property is unavailable" (client.h, mpv_event_property).
        default: return .none
        }
    }
}

/// The payload of `MPV_EVENT_END_FILE`.
struct MPVEndFile: Sendable, Equatable {
    /// `mpv_end_file_reason`, with the unknown values client.h warns about kept apart.
    enum Reason: Sendable, Equatable {
        case eof, stop, quit, error, redirect
        case unknown(UInt32)
    }

    /// The entry that ended (same id as its `startFile`).
    var entry: Int64
    /// Why.
    var reason: Reason
    /// With `.error`: a (negative) mpv error code; 0 otherwise.
    var error: Int32
    /// With `.redirect`: the id of the first entry inserted in place of this one (a playlist
    /// file), and how many were inserted; 0 otherwise.
    var insertedEntry: Int64
    /// See `insertedEntry`.
    var insertedCount: Int

    /// Plain memberwise construction (tests build these by hand).
    init(entry: Int64, reason: Reason, error: Int32 = 0, insertedEntry: Int64 = 0, insertedCount: Int = 0) {
        self.entry = entry
        self.reason = reason
        self.error = error
        self.insertedEntry = insertedEntry
        self.insertedCount = insertedCount
    }

    /// Copies mpv's struct.
    init(_ data: mpv_event_end_file) {
        let reason: Reason = switch data.reason {
        case MPV_END_FILE_REASON_EOF: .eof
        case MPV_END_FILE_REASON_STOP: .stop
        case MPV_END_FILE_REASON_QUIT: .quit
        case MPV_END_FILE_REASON_ERROR: .error
        case MPV_END_FILE_REASON_REDIRECT: .redirect
        default: .unknown(data.reason.rawValue)
        }
        self.init(entry: data.playlist_entry_id, reason: reason, error: data.error,
                  insertedEntry: data.playlist_insert_id, insertedCount: Int(data.playlist_insert_num_entries))
    }
}

/// The payload of `MPV_EVENT_LOG_MESSAGE`, copied.
struct MPVLogMessage: Sendable, Equatable {
    /// mpv's level name: `fatal`, `error`, `warn`, …
    var level: String
    /// The module that logged: `ffmpeg`, `stream`, `cplayer`, `ao/alsa`, …
    var prefix: String
    /// The message without its trailing newline.
    var text: String

    /// Plain construction (tests build these by hand).
    init(level: String, prefix: String, text: String) {
        self.level = level
        self.prefix = prefix
        self.text = text
    }

    /// Copies mpv's struct. client.h: "text: The log message. It consists of 1 line of text,
    /// and is terminated with a newline character."
    init(_ data: mpv_event_log_message) {
        let text = data.text.map { String(cString: $0) } ?? ""
        self.init(level: data.level.map { String(cString: $0) } ?? "",
                  prefix: data.prefix.map { String(cString: $0) } ?? "",
                  text: text.hasSuffix("\n") ? String(text.dropLast()) : text)
    }
}
