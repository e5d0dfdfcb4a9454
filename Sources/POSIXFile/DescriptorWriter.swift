import Glibc

/// The one loop around `write(2)`: every part of mhz that writes bytes to a file descriptor
/// (a transcoded file, a live segment, a joined period, a downloaded body) writes through it.
///
/// `write(2)` may take fewer bytes than it was given ("the number of bytes written may be
/// less than count") and may be interrupted by a signal before writing anything (`EINTR`);
/// both are retried here. A `write` that returns 0 for a non-empty buffer makes no progress
/// and would loop forever, so it is reported as `EIO`.
public enum DescriptorWriter {
    /// Writes all of `bytes` to `descriptor`; returns 0, or the `errno` that stopped it
    /// (the bytes before it are written).
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var done = 0
        return writeAll(bytes, to: descriptor, written: &done)
    }

    /// Writes all of `bytes` to `descriptor`, counting in `written` the bytes that reached
    /// it (all of them on success, those before the failure otherwise); returns 0, or the
    /// `errno` that stopped it.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, written done: inout Int) -> Int32 {
        done = 0
        guard let base = bytes.baseAddress else { return 0 }
        while done < bytes.count {
            let written = write(descriptor, base + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            done += written
        }
        return 0
    }

    /// Writes all of `bytes` to `descriptor`; returns 0, or the `errno` that stopped it.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }
}
