import COpenSSL
import Foundation

/// AES-128-CBC decryption of an HLS segment (RFC 8216 §4.3.2.4: "AES-128 … with a 128-bit
/// key, Cipher Block Chaining, and PKCS7 padding"), through OpenSSL's EVP cipher API: a
/// maintained, constant-time implementation, not a cipher written here.
enum SegmentDecryptor {
    /// Why a segment could not be decrypted.
    enum Failure: Error, Equatable {
        /// The key or IV is not 16 bytes.
        case badKeyLength
        /// OpenSSL refused the data: a length that is not a multiple of 16, or padding that
        /// is not PKCS#7 after decryption (the wrong key or IV).
        case badPadding
    }

    /// Decrypts `ciphertext` with `key` and `iv` and strips the PKCS#7 padding.
    static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16, iv.count == 16 else { throw .badKeyLength }
        // "EVP_CIPHER_CTX_new() creates a cipher context" (NULL on failure).
        guard let context = EVP_CIPHER_CTX_new() else { throw .badPadding }
        defer { EVP_CIPHER_CTX_free(context) }
        // "EVP_DecryptInit_ex() … return 1 for success and 0 for failure"; padding is on by
        // default ("EVP_CIPHER_CTX_set_padding() … By default encryption operations are
        // padded using standard block padding").
        guard EVP_DecryptInit_ex(context, EVP_aes_128_cbc(), nil, key, iv) == 1 else { throw .badPadding }
        // "the amount of data written may be anything from zero bytes to (inl +
        // cipher_block_size - 1)": one spare block.
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written = 0
        let ok = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard let outStart = out.baseAddress else { return false }
            return ciphertext.withUnsafeBufferPointer { input in
                // OpenSSL counts in `int`: a segment from a server may be longer than that,
                // so it goes in pieces of at most 2^30 bytes (a multiple of the block).
                var read = 0
                while read < input.count, let inStart = input.baseAddress {
                    let piece = min(input.count - read, 1 << 30)
                    var n: Int32 = 0
                    guard EVP_DecryptUpdate(context, outStart + written, &n, inStart + read, Int32(piece)) == 1 else { return false }
                    written += Int(n)
                    read += piece
                }
                // "EVP_DecryptFinal_ex() … returns 0 if the decrypt failed or 1 for success":
                // it fails on bad padding, which is what a wrong key looks like.
                var last: Int32 = 0
                guard EVP_DecryptFinal_ex(context, outStart + written, &last) == 1 else { return false }
                written += Int(last)
                return true
            }
        }
        guard ok else { throw .badPadding }
        output.removeSubrange(written...)
        return output
    }
}
