import Foundation

/// Executables built alongside the tests (`mhz`, `TUIHarness`), found next to the test
/// bundle whatever the build directory is called.
public enum BuiltProduct {
    /// The path of the executable `name` in the build directory of the running tests.
    public static func path(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = bundle.deletingLastPathComponent()
        while dir.pathComponents.count > 1 {
            let candidate = dir.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate.path
            }
            dir.deleteLastPathComponent()
        }
        return bundle.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
