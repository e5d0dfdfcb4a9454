import COpenSSL
import Foundation

/// SHA-256 of a file, through OpenSSL's EVP digest API, read in 1 MiB blocks so a file of
/// any size costs the same memory.
enum FileDigest {
    /// The file's SHA-256 as 64 lowercase hex digits, or nil when it cannot be read.
    static func sha256(path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // "EVP_MD_CTX_new() Allocates and returns a digest context" (NULL on failure).
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        // "EVP_DigestInit_ex() … returns 1 for success and 0 for failure."
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        let block = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, block)
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            guard EVP_DigestUpdate(context, buffer, n) == 1 else { return nil }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
