import Foundation

/// Reads a pipe to its end on a thread of its own with blocking `read(2)`, handing each
/// chunk to a closure: how the tests collect a child process's output.
///
/// Not `FileHandle.readabilityHandler`: that installs a libdispatch read source, and on
/// Linux tearing such sources down while others are set up corrupts libdispatch's epoll
/// bookkeeping (swift-corelibs-libdispatch#949). A full test run, with dozens of child
/// processes started and reaped side by side, crashed in `_dispatch_event_loop_drain` that
/// way. A blocking read registers nothing with libdispatch.
public enum PipeReader {
    /// Starts reading `handle` until end of file (the child closed its end). `onChunk` runs
    /// on the reading thread, once per `read` that returned bytes, in order; `onEnd` once
    /// after the last chunk (a child's exit is seen before its last output is read).
    public static func drain(_ handle: FileHandle, name: String, onChunk: @escaping @Sendable (Data) -> Void,
                             onEnd: @escaping @Sendable () -> Void = {}) {
        let thread = Thread {
            // The handle is held until the loop ends, so its descriptor cannot be closed
            // (and its number reused) under the read.
            let fd = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    onChunk(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            withExtendedLifetime(handle) {}
            onEnd()
        }
        thread.name = name
        thread.start()
    }
}
