import ArgumentParser
import Foundation

/// Options every subcommand accepts: `--server`, `--api`, `--data-dir` and `--config`
/// work everywhere, so any command can be pointed at another station or data directory.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Station base URL (e.g. https://www.douban.com). Default: the embedded station.")
    var server: String?

    @Option(help: "API family of --server: app (/j/app/…, the default) or web (/j/v2/…, captcha login).")
    var api: String?

    @Option(name: .customLong("data-dir"), help: "Where mhz keeps its database, log and the demo library.")
    var dataDir: String?

    @Option(help: "Configuration file (default: $XDG_CONFIG_HOME/mhz/config.toml).")
    var config: String?
}
