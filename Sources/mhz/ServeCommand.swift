import ArgumentParser
import Foundation
import Logging
import Station

/// `mhz serve`: run the station on its own, for any Douban-FM app-API client.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve a music folder as a Douban-FM-compatible station.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Music folder (default ~/Music, else a demo library).")
    var library: String?

    @Option(help: "Address to bind. Anything but 127.0.0.1 exposes the station to your network.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind (0: any free port).")
    var port = 7650

    func run() async throws {
        let paths = Paths(options: global)
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let home = URL(fileURLWithPath: NSHomeDirectory())
        let folder = URL(fileURLWithPath: Paths.expand(library ?? "~/Music", home: home), isDirectory: true)
        let station: Station
        let url: URL
        do {
            station = try await Station(configuration: StationConfiguration(
                library: folder, dataDirectory: paths.stationDirectory, host: host, port: port))
            url = try await station.start()
        } catch {
            throw CLIError.runtime(StationErrorText.describe(error)).exit()
        }
        let info = station.libraryInfo
        FileHandle.standardError.write(Data("mhz: serving \(info.trackCount) songs from \(info.path.path) on \(url.absoluteString)\n".utf8))
        let stopped = AsyncStream<Int32>.makeStream()
        let trap = SignalTrap { stopped.continuation.yield($0) }
        for await _ in stopped.stream { break }
        await station.stop()
        withExtendedLifetime(trap) {}
    }
}
