import ArgumentParser
import Foundation
import Radio
import RadioAPI

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
            throw .runtime(ServiceText.describe(error, server: runtime.serverName))
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

/// One line for a failed station call, for the CLI: what happened, a colon, what to do.
/// (The terminal UI and headless mode word the same failures in ``ErrorText``.)
enum ServiceText {
    /// Words for `failure` of a request to `server` (its URL, as the listener gave it).
    static func describe(_ failure: ServiceFailure, server: String) -> String {
        switch failure {
        case .unreachable(let detail): "cannot reach \(server) (\(detail)): check --server and your network"
        case .untrusted(let detail):
            "\(server) has a TLS certificate that is not trusted (\(detail)): check --server; set verify_tls = false "
                + "in the config only if you trust this server"
        case .busy(429): "\(server) is limiting requests (HTTP 429): wait a minute, then try again"
        case .busy(let status): "\(server) answered HTTP \(status): try again later or check --server"
        case .httpStatus(let status) where status == 401 || status == 403:
            // Douban answers 403 both to a lapsed login and to a client it is rate limiting.
            "\(server) refused access (HTTP \(status)): run `mhz login`, or wait a few minutes if you are logged in"
        case .httpStatus(let status): "\(server) answered HTTP \(status): try again later or check --server"
        case .malformed(let what): "\(server) sent an answer mhz does not understand (\(what)): is --server a radio station?"
        case .rejected(let word):
            "\(server) refused the request (\(word)): check --server and --api (app or web), or run `mhz login`"
        case .expired: "your login expired: run `mhz login` again"
        case .needsLogin(let channel):
            (channel == Channel.redHeartID ? "the red-heart channel (\(channel))" : "channel \(channel)")
                + " needs a login: run `mhz login`, or pick another channel (`mhz channels` lists them)"
        }
    }
}
