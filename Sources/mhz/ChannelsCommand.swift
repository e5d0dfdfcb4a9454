import ArgumentParser
import Foundation
import Radio

/// `mhz channels [--json]`: list the station's channels.
struct ChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "channels", abstract: "List the station's channels.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print a JSON array of {\"id\",\"name\"} objects.")
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
            throw .runtime(ServiceText.describe(error, server: runtime.baseURL.absoluteString))
        }
        if json {
            let objects = channels.map { ["id": $0.id, "name": $0.name] }
            let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])) ?? Data("[]".utf8)
            print(String(decoding: data, as: UTF8.self))
        } else {
            let width = channels.map(\.id.count).max() ?? 1
            for channel in channels {
                print(channel.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + channel.name)
            }
        }
        await runtime.shutdown()
    }
}

/// One line for a failed station call, for the CLI.
enum ServiceText {
    static func describe(_ failure: ServiceFailure, server: String) -> String {
        switch failure {
        case .unreachable(let detail): "cannot reach \(server) (\(detail)): check --server and your network"
        case .httpStatus(let status): "\(server) answered HTTP \(status): try again later or check --server"
        case .malformed(let what): "\(server) sent an answer mhz does not understand (\(what)): is --server a radio station?"
        case .rejected(let word): "\(server) refused the request (\(word))"
        case .expired: "your login expired: run `mhz login` again"
        }
    }
}
