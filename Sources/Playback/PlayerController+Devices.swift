/// Audio output devices.
extension PlayerController {
    /// The outputs mpv can use (its `audio-device-list`), `auto` first. The list covers every
    /// audio driver mpv was built with, whatever `ao` is in use: with `ao=null` on a headless
    /// Debian box mpv 0.35.1 listed `auto`, `alsa`, `jack` and `sdl`. Reading it makes mpv
    /// probe those drivers (pipewire and jack may print to stderr), so call it when the user
    /// asks, not in a loop.
    /// - Throws: `.shutDown` after shutdown; `.commandFailed` if mpv has no list.
    public func audioDevices() throws(PlaybackError) -> [AudioDevice] {
        guard let node = handle.node(.audioDeviceList) else {
            if handle.isShutDown { throw .shutDown }
            throw .commandFailed(name: "get \(MPVProperty.audioDeviceList.rawValue)", message: "unavailable")
        }
        guard case .array(let items) = node else { return [] }
        return items.compactMap { item in
            guard case .string(let name)? = item["name"] else { return nil }
            let description = if case .string(let text)? = item["description"] { text } else { name }
            return AudioDevice(name: name, description: description)
        }
    }

    /// The device in use or asked for (`auto` unless changed); nil once shut down.
    public var audioDevice: String? { handle.string(.audioDevice) }

    /// Switches output to `name` (an `AudioDevice.name`); mpv reopens the output at once if
    /// something plays. A name mpv cannot open makes the playing item (and the next ones)
    /// finish with `.audioOutputFailed`, so offer names from `audioDevices()`.
    /// - Throws: `.commandFailed` if mpv refuses the value.
    public func setAudioDevice(_ name: String) throws(PlaybackError) {
        try handle.set(.audioDevice, string: name)
    }
}
