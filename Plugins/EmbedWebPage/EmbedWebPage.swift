// The web player's files (Sources/Station/Web/Page: its HTML, CSS and JavaScript) built
// into the Station module as string constants (`WebPageFiles`) by the EmbedFiles tool,
// so the binary needs no bundle beside it. The files are the command's inputs: editing one
// builds the module again.
import Foundation
import PackagePlugin

/// The build-tool plugin Station uses.
@main
struct EmbedWebPage: BuildToolPlugin {
    /// The kinds of file embedded; anything else in the folder (the script checker's
    /// configuration) is not part of the page.
    static let kinds: Set<String> = ["html", "css", "js"]

    /// One command: every page file of the target's `Web/Page` into `WebPageFiles.swift`.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Web/Page")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") && Self.kinds.contains(($0 as NSString).pathExtension) }
            .sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebPageFiles.swift")
        return [
            .buildCommand(displayName: "Embedding the web player's files",
                          executable: try context.tool(named: "EmbedFiles").url,
                          arguments: [output.path, "WebPageFiles"] + inputs.map(\.path),
                          inputFiles: inputs,
                          outputFiles: [output]),
        ]
    }
}
