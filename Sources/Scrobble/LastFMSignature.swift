import COpenSSL
import Foundation

/// Last.fm's `api_sig` (last.fm/api/authspec, "Sign your calls"): the parameters but
/// `format` and `callback`, ordered by name, written one after another as name then value,
/// the shared secret appended, hashed with MD5 and written as 32 lowercase hex digits.
public enum LastFMSignature {
    /// The signature of `parameters` with `secret`.
    public static func sign(_ parameters: [(name: String, value: String)], secret: String) -> String {
        let text = parameters.filter { $0.name != "format" && $0.name != "callback" }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            .map { $0.name + $0.value }.joined() + secret
        return md5Hex(Data(text.utf8))
    }

    /// MD5 of `data` in lowercase hex, through libcrypto's one-shot `EVP_Digest(3)`.
    public static func md5Hex(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // "EVP_Digest() … returns 1 for success and 0 for failure." MD5 of bytes in memory
        // fails only without memory; the digest is then empty and the service refuses it.
        let ok = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_md5(), nil)
        }
        guard ok == 1 else { return "" }
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
