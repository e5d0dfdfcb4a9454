import ArgumentParser

/// `mhz`: the command line of DESIGN.md. Playing is the default subcommand, so
/// `mhz --channel 1` plays channel 1.
@main
struct Mhz: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mhz",
        abstract: "A terminal radio for Douban-FM-style stations.",
        discussion: """
            With no --server, mhz starts its own station in-process over --library (default ~/Music, \
            else a demo library it synthesizes on first run).
            """,
        subcommands: [PlayCommand.self, ChannelsCommand.self, ServeCommand.self],
        defaultSubcommand: PlayCommand.self
    )
}
