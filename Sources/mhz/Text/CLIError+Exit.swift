import ArgumentParser
import Foundation

// Apart from the errors themselves, so that config.toml's parser (which throws them) can
// be compiled without ArgumentParser and the command into script/fuzz's config target.
extension CLIError {
    /// Usage errors exit 2, everything else 1.
    var exitCode: ExitCode {
        switch self {
        case .unsupportedAPI, .webNeedsServer, .invalidServer: Mhz.usageExitCode
        default: ExitCode.failure
        }
    }

    /// Prints the line on stderr as `mhz: …` and exits with the right status.
    func exit() -> ExitCode {
        FileHandle.standardError.write(Data("mhz: \(description)\n".utf8))
        return exitCode
    }
}
