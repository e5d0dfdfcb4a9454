import ArgumentParser
import Foundation
import Radio
import RadioAPI
import TerminalUI

/// `mhz channels [--json]`: list the station's channels.
struct ChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "channels", abstract: "List the station's channels.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print a JSON array of {\"id\",\"name\"} objects (\"live\":true on a channel broadcast live).")
    var json = false

    @Option(help: "Music folder for the embedded station.")
    var library: String?

    func run() async throws {
        do {
            try await list()
        } catch {
            throw error.exit()
        }
    }

    private func list() async throws(CLIError) {
        let runtime = try await RadioRuntime.make(options: global, library: library)
        let client = runtime.stationClient()
        let channels: [ChannelInfo]
        do {
            channels = try await client.channels()
        } catch {
            await runtime.shutdown()
            throw .runtime(ErrorText.describe(error, for: .command(server: runtime.serverName)))
        }
        if json {
            let objects = channels.map { channel -> [String: Any] in
                channel.live ? ["id": channel.id, "name": channel.name, "live": true] : ["id": channel.id, "name": channel.name]
            }
            let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])) ?? Data("[]".utf8)
            print(String(decoding: data, as: UTF8.self))
        } else {
            // `live` after the name of a channel `mhz --live` can listen to.
            let width = channels.map(\.id.count).max() ?? 1
            for channel in channels {
                print(channel.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + channel.name
                      + (channel.live ? "  (live)" : ""))
            }
        }
        await runtime.shutdown()
    }
}
