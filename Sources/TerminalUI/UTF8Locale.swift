import Glibc

/// A private UTF-8 `LC_CTYPE` locale that one thread at a time can borrow while it asks
/// `wcwidth` about non-ASCII text.
///
/// Why not `setlocale`: it changes the whole process, races with other threads reading
/// the locale, and the composition root has its own rules for it (libmpv refuses to start
/// unless `LC_NUMERIC` is "C"). `uselocale` changes only the calling thread and is undone
/// on the way out, so measuring text is invisible to the rest of the program and gives
/// the same answer under `LANG=C` as under `LANG=zh_CN.UTF-8`.
final class UTF8Locale: @unchecked Sendable {
    /// The process-wide instance, created on first use. `@unchecked Sendable` because the
    /// handle is written once here and never freed or changed; glibc allows one `locale_t`
    /// to be installed on several threads at once.
    static let shared = UTF8Locale()

    /// The locale, or nil when none of the candidates exists on this system.
    private let handle: locale_t?

    private init() {
        // C.UTF-8 is built into glibc since 2.35 (Debian 12 has 2.36); the others cover
        // older systems that ship it as a generated locale or not at all.
        var found: locale_t?
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] {
            if let locale = newlocale(LC_CTYPE_MASK, name, nil) {
                found = locale
                break
            }
        }
        handle = found
    }

    /// Whether `wcwidth` can be trusted; when false, callers use `EastAsianWidth`.
    var isAvailable: Bool { handle != nil }

    /// Runs `body` with the calling thread's locale switched to UTF-8, then switches back
    /// to whatever the thread used before (usually the global locale).
    func withThreadLocale<T>(_ body: () throws -> T) rethrows -> T {
        guard let handle else { return try body() }
        let previous = uselocale(handle)
        defer { uselocale(previous) }
        return try body()
    }
}
