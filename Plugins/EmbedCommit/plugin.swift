// The commit mhz is built from, as `BuildCommit.hash` in the mhz target (`mhz --version`),
// written by the ReadCommit tool. Its inputs are the files that say which commit HEAD is
// (HEAD, the branch's loose ref, packed-refs): a new commit or a checkout builds the one
// generated file again, and only the executable is linked anew.
import Foundation
import PackagePlugin

/// The build-tool plugin the mhz target uses.
@main
struct EmbedCommit: BuildToolPlugin {
    /// One command: the package's HEAD into `BuildCommit.swift`.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        return [
            .buildCommand(displayName: "Embedding the commit mhz is built from",
                          executable: try context.tool(named: "ReadCommit").url,
                          arguments: [output.path, root.path],
                          inputFiles: Self.headFiles(root: root),
                          outputFiles: [output]),
        ]
    }

    /// The files whose change means HEAD names another commit, those that exist: `.git/HEAD`,
    /// the ref it points to, and `packed-refs` (in a worktree, its own git dir's HEAD and the
    /// common dir's refs).
    static func headFiles(root: URL) -> [URL] {
        let dotGit = root.appending(path: ".git")
        var git = dotGit
        if let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir: ") {
            git = URL(fileURLWithPath: text.dropFirst("gitdir: ".count).trimmingCharacters(in: .whitespacesAndNewlines),
                      relativeTo: root).standardizedFileURL
        }
        var common = git
        if let text = try? String(contentsOf: git.appending(path: "commondir"), encoding: .utf8) {
            common = URL(fileURLWithPath: text.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: git).standardizedFileURL
        }
        var files = [git.appending(path: "HEAD"), common.appending(path: "packed-refs")]
        if let head = try? String(contentsOf: git.appending(path: "HEAD"), encoding: .utf8), head.hasPrefix("ref: ") {
            let ref = head.dropFirst("ref: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            files += [git.appending(path: ref), common.appending(path: ref)]
        }
        var seen = Set<String>()
        return files.filter { FileManager.default.fileExists(atPath: $0.path) && seen.insert($0.path).inserted }
    }
}
