/// Whether mpv's video window can be shown: it needs an X11 (`DISPLAY`) or Wayland
/// (`WAYLAND_DISPLAY`) display. Checked before mpv is created, because without one mpv does
/// not fail cleanly: its automatic output probing tries the console (drm) and sdl, taking
/// seconds, and may end up "playing" video nowhere.
public enum VideoDisplay {
    /// The display mpv would use, e.g. `:0` or `wayland-0`; nil when there is none.
    /// - Parameter environment: the process environment (injectable for tests).
    public static func name(in environment: [String: String]) -> String? {
        for key in ["WAYLAND_DISPLAY", "DISPLAY"] {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return nil
    }

    /// Throws unless a display exists (an empty `DISPLAY=` is none).
    /// - Throws: `.noDisplay`.
    public static func require(in environment: [String: String]) throws(PlaybackError) {
        guard name(in: environment) == nil else { return }
        throw .noDisplay
    }
}
