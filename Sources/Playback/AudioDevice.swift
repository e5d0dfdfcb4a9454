/// One entry of mpv's `audio-device-list`: an output the player can be switched to with
/// `PlayerController.setAudioDevice(_:)`.
public struct AudioDevice: Sendable, Equatable, Hashable {
    /// mpv's name: `auto`, or `<driver>/<device>` such as `alsa/default` or `pulse/…`.
    public var name: String
    /// Human-readable text from the driver, e.g. "Autoselect device", "Default (alsa)".
    public var description: String

    /// Creates a device entry.
    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    /// The automatic choice mpv always lists first.
    public static let automatic = AudioDevice(name: "auto", description: "Autoselect device")
}
