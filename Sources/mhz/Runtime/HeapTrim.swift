import CMalloc

/// Hands the heap's free pages back to the system once a burst of work has freed them.
///
/// glibc keeps what a thread frees in that thread's arena for the next allocation; after
/// the station's sound analysis (decoded audio, one sound table after another) that is tens
/// of megabytes a station would hold for nothing (41 MiB after 16 666 tracks, of 208).
/// `malloc_trim(3)`: "attempts to release free memory from the heap (by calling sbrk(2) or
/// madvise(2) with suitable arguments)", in every arena since glibc 2.8; `pad` 0 keeps no
/// spare at the top.
enum HeapTrim {
    /// Releases what can be released; cheap when there is nothing to release.
    @Sendable static func release() {
        _ = malloc_trim(0)
    }
}
