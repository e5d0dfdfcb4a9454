import Settings
/// Failures of the command line itself, each with the one line the user reads and the
/// exit status mhz promises (man mhz, EXIT STATUS: 2 usage, 1 runtime).
enum CLIError: Error, Equatable, CustomStringConvertible {
    case configUnreadable(String)
    case configInvalid(String, line: Int?, String)
    case configKeys(String, line: Int?, String)
    case unsupportedAPI(String)
    case webNeedsServer
    case invalidServer(String)
    case runtime(String)

    var description: String {
        switch self {
        case .configUnreadable(let path):
            "cannot read config file \(path): check the path and its permissions"
        case .configInvalid(let path, let line, let what):
            "config file \(path)\(line.map { " line \($0)" } ?? ""): \(what) — fix it (see Config/config.example.toml)"
        case .configKeys(let path, let line, let what):
            "config file \(path)\(line.map { " line \($0)" } ?? ""): \(what)"
        case .unsupportedAPI(let api):
            "--api \(api) is not an API family mhz speaks: use --api app or --api web"
        case .webNeedsServer:
            "--api web needs --server (the embedded station speaks the app API): e.g. --server https://douban.fm"
        case .invalidServer(let url):
            "--server \(url) is not an http(s) URL: give one like https://www.douban.com"
        case .runtime(let line):
            line
        }
    }
}
