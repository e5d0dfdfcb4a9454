/// The secrets a login hands out, in Douban's shapes.
///
/// A token is 10 lowercase hex digits, as Douban's were (`"edbee64aed"`): a C client
/// (hzqtc/fmd) keeps the token in a 16-byte field of a struct, so anything longer overflows
/// it and corrupts every later request. 40 bits alone could be guessed by a patient client,
/// so tokens also expire (``AccountStore/tokenLifetime``) and an address that keeps
/// presenting wrong ones is slowed and then refused (``TokenGuard``).
enum LoginToken {
    /// Characters of a token.
    static let length = 10
    /// Characters of the web family's `ck` check code (Douban's were 4: `"10se"`).
    static let checkCodeLength = 4

    /// A new token from the system's cryptographic generator.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef")
        return String((0..<length).map { _ in hex.randomElement(using: &generator)! })
    }

    /// A new `ck` value: letters and digits, as Douban's (`"COHi"`, `"tEZ9"`).
    static func makeCheckCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<checkCodeLength).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// Whether `text` has a token's shape; anything else is refused without a database read.
    /// Tokens of 32 hex digits, which earlier stations handed out, stay valid until they expire.
    static func hasTokenShape(_ text: String) -> Bool {
        (text.utf8.count == length || text.utf8.count == 32)
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Compares two secrets in time that depends only on their lengths, so the time of a
    /// refusal tells nothing about how much of a guess was right.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
