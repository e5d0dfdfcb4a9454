import Foundation

/// MD5 (RFC 1321), written out for the Last.fm stand-in, so the signature it checks is
/// computed by other code than the client's (which asks libcrypto).
public enum MD5 {
    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]
    /// floor(abs(sin(i + 1)) × 2^32), RFC 1321's table T.
    private static let table: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    /// The digest of `bytes` as 32 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        var message = bytes
        let bitLength = UInt64(bytes.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for index in 0..<8 { message.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))) }
        var a0: UInt32 = 0x6745_2301, b0: UInt32 = 0xefcd_ab89, c0: UInt32 = 0x98ba_dcfe, d0: UInt32 = 0x1032_5476
        for chunk in stride(from: 0, to: message.count, by: 64) {
            var words = [UInt32](repeating: 0, count: 16)
            for index in 0..<16 {
                let base = chunk + index * 4
                words[index] = UInt32(message[base]) | UInt32(message[base + 1]) << 8
                    | UInt32(message[base + 2]) << 16 | UInt32(message[base + 3]) << 24
            }
            var a = a0, b = b0, c = c0, d = d0
            for step in 0..<64 {
                var f: UInt32
                var g: Int
                switch step {
                case 0..<16: f = (b & c) | (~b & d); g = step
                case 16..<32: f = (d & b) | (~d & c); g = (5 * step + 1) % 16
                case 32..<48: f = b ^ c ^ d; g = (3 * step + 5) % 16
                default: f = c ^ (b | ~d); g = (7 * step) % 16
                }
                f = f &+ a &+ table[step] &+ words[g]
                a = d
                d = c
                c = b
                b = b &+ (f << shifts[step] | f >> (32 - shifts[step]))
            }
            a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
        }
        var out = ""
        for word in [a0, b0, c0, d0] {
            for index in 0..<4 {
                let byte = UInt8(truncatingIfNeeded: word >> UInt32(8 * index))
                if byte < 16 { out += "0" }
                out += String(byte, radix: 16)
            }
        }
        return out
    }
}
