// libFuzzer entry point for the command parser that headless stdin, the control socket and
// `[keys]` bindings read (not part of `swift build` or `swift test`): `script/fuzz command`
// compiles it with RadioCommand.swift, CommandWord.swift, DefaultKey.swift and
// DownloadAction.swift. Any line may be refused with a CommandParseError; none may crash,
// and a command parsed must read back from its own `line`, since that is how commands are
// written out and read again.
/// libFuzzer calls this with each input: one command line, as UTF-8 (repaired).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommand(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let command = try? RadioCommand.parse(line) else { return 0 }
    _ = command.commandWord.usage
    let again: RadioCommand
    do {
        again = try RadioCommand.parse(command.line)
    } catch {
        fatalError("\(command) reads as \(String(reflecting: command.line)), which does not parse: \(error)")
    }
    guard again == command else {
        fatalError("\(command) reads as \(String(reflecting: command.line)), which parses as \(again)")
    }
    return 0
}
