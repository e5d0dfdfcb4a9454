import Foundation

/// How a segment is encrypted (`EXT-X-KEY`).
public struct SegmentKey: Sendable, Equatable, Hashable {
    /// `METHOD`.
    public enum Method: Sendable, Equatable, Hashable {
        /// `AES-128`: the whole segment, AES-128-CBC with PKCS#7 padding.
        case aes128
        /// `SAMPLE-AES`: samples inside the media (a DRM scheme).
        case sampleAES
        /// `SAMPLE-AES-CTR`.
        case sampleAESCTR
        /// Another method.
        case other(String)

        /// The method as the playlist writes it.
        public var name: String {
            switch self {
            case .aes128: "AES-128"
            case .sampleAES: "SAMPLE-AES"
            case .sampleAESCTR: "SAMPLE-AES-CTR"
            case .other(let name): name
            }
        }

        init(_ text: String) {
            switch text.uppercased() {
            case "AES-128": self = .aes128
            case "SAMPLE-AES": self = .sampleAES
            case "SAMPLE-AES-CTR": self = .sampleAESCTR
            default: self = .other(text)
            }
        }
    }

    /// `METHOD`.
    public var method: Method
    /// `URI`: where the key is, resolved.
    public var uri: URL?
    /// The 16 bytes that decrypt the segment: the `IV` attribute, or (RFC 8216 §5.2) the
    /// segment's media sequence number as a 128-bit big-endian integer.
    public var iv: [UInt8]
    /// Whether `iv` came from the `IV` attribute.
    public var ivIsExplicit: Bool
    /// `KEYFORMAT` (`identity` when absent, by RFC 8216).
    public var keyFormat: String?
    /// `KEYFORMATVERSIONS`.
    public var keyFormatVersions: String?

    /// Creates a key.
    public init(method: Method, uri: URL?, iv: [UInt8], ivIsExplicit: Bool, keyFormat: String? = nil,
                keyFormatVersions: String? = nil) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.ivIsExplicit = ivIsExplicit
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
    }

    /// The IV as 32 lowercase hex digits.
    public var ivHex: String {
        iv.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The IV of a segment numbered `sequence`: 16 bytes, big-endian.
    static func implicitIV(_ sequence: Int) -> [UInt8] {
        let value = UInt64(truncatingIfNeeded: sequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    /// An `IV` attribute (`0x` or `0X` and up to 32 hex digits; fewer are the same number,
    /// left-padded with zeros); nil when it is not one. The digits are ASCII's alone:
    /// `Character.isHexDigit` also takes full-width ones (`０`–`９`, `Ａ`–`Ｆ`), which are no
    /// hex digit of RFC 8216's `hexadecimal-sequence` (§4.2).
    static func explicitIV(_ text: String) -> [UInt8]? {
        var digits = Substring(text).utf8
        guard digits.starts(with: "0x".utf8) || digits.starts(with: "0X".utf8) else { return nil }
        digits = digits.dropFirst(2)
        guard !digits.isEmpty, digits.count <= 32 else { return nil }
        var nibbles = [UInt8](repeating: 0, count: 32 - digits.count)
        for byte in digits {
            guard let nibble = hexValue(byte) else { return nil }
            nibbles.append(nibble)
        }
        return stride(from: 0, to: 32, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    /// The value of one ASCII hex digit; nil for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
