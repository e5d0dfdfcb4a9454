/// MPEG-TS continuity counters carried across a join: the 4-bit counter of each PID
/// "incremented by one with each transport stream packet with the same PID" that carries a
/// payload (ISO/IEC 13818-1 §2.4.3.3), and a demuxer that finds it broken marks the PES
/// under way as corrupt. Packets appended after a kept prefix come from a new muxer that
/// counts from 0, so each of their PIDs is shifted to continue the prefix's count.
struct TSContinuity {
    /// The MPEG-TS packet length.
    static let packetSize = 188
    /// The last counter seen per PID.
    private var last: [UInt16: UInt8] = [:]
    /// What is added to each appended packet's counter, per PID.
    private var shift: [UInt16: UInt8] = [:]
    /// Bytes of an appended packet not yet complete (a muxer's writes need not end on a
    /// packet boundary).
    private var pending: [UInt8] = []

    /// Whether `bytes` are whole MPEG-TS packets, each starting with the sync byte 0x47.
    static func isTransportStream(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty, bytes.count % packetSize == 0 else { return false }
        return stride(from: 0, to: bytes.count, by: packetSize).allSatisfy { bytes[$0] == 0x47 }
    }

    /// Notes the counters of the kept prefix's packets (`bytes` whole packets).
    mutating func observe(_ bytes: UnsafeRawBufferPointer) {
        for offset in stride(from: 0, to: bytes.count - Self.packetSize + 1, by: Self.packetSize) {
            let pid = UInt16(bytes[offset + 1] & 0x1F) << 8 | UInt16(bytes[offset + 2])
            last[pid] = bytes[offset + 3] & 0x0F
        }
    }

    /// Rewrites the counters of appended bytes and returns the whole packets among them (the
    /// rest waits for the next call).
    mutating func patch(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        pending.append(contentsOf: bytes)
        let whole = pending.count - pending.count % Self.packetSize
        for offset in stride(from: 0, to: whole, by: Self.packetSize) where pending[offset] == 0x47 {
            let pid = UInt16(pending[offset + 1] & 0x1F) << 8 | UInt16(pending[offset + 2])
            if pid == 0x1FFF { continue }  // null packets carry no counter that matters
            let counter = pending[offset + 3] & 0x0F
            if shift[pid] == nil {
                // The first appended packet of a PID continues the prefix's last: one more
                // with a payload (adaptation_field_control's low bit), the same without.
                let payload = pending[offset + 3] & 0x10 != 0
                shift[pid] = last[pid].map { previous in ((payload ? previous &+ 1 : previous) &- counter) & 0x0F } ?? 0
            }
            pending[offset + 3] = pending[offset + 3] & 0xF0 | ((counter &+ shift[pid]!) & 0x0F)
        }
        let out = Array(pending[..<whole])
        pending.removeFirst(whole)
        return out
    }

    /// Bytes left that make no whole packet (none when the muxer wrote whole packets).
    var remainder: [UInt8] { pending }
}
