import CTagLibPictures
import Foundation

extension TagLibFile {
    /// The lyrics embedded in the file, as text: an ID3v2 SYLT frame turned into LRC
    /// (`[mm:ss.xx]line`), else the unsynchronized lyrics (ID3v2 USLT, Vorbis and FLAC
    /// `LYRICS` or `UNSYNCEDLYRICS`, MP4 `©lyr`) as the tagger wrote them, which may be LRC
    /// too. `nil` when the file has none.
    ///
    /// TagLib's C binding has no lyrics API: this goes through its C++ API in
    /// `CTagLibPictures`, on this same open file, on the thread that opened it.
    package var lyrics: String? {
        var text: UnsafeMutablePointer<CChar>?
        // "Returns 1 and sets *text when lyrics were found … the caller frees with free()."
        guard mhz_taglib_lyrics(UnsafeMutableRawPointer(handle), &text) == 1, let text else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// Sets the unsynchronized lyrics (USLT, a Vorbis comment, `©lyr`). Takes effect on
    /// ``save()``.
    ///
    /// - Returns: whether the file kept them.
    @discardableResult
    package func setLyrics(_ text: String) -> Bool {
        mhz_taglib_set_lyrics(UnsafeMutableRawPointer(handle), text) == 1
    }

    /// Sets an MP3's synchronized lyrics: an ID3v2 SYLT frame with millisecond stamps, one
    /// entry per line. Takes effect on ``save()``.
    ///
    /// - Returns: false when the file is not an MP3.
    @discardableResult
    package func setSyncedLyrics(_ lines: [(milliseconds: UInt32, text: String)]) -> Bool {
        let stamps = lines.map { CUnsignedInt($0.milliseconds) }
        let copies = lines.map { strdup($0.text) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return stamps.withUnsafeBufferPointer { stampBuffer in
            pointers.withUnsafeBufferPointer { lineBuffer in
                mhz_taglib_set_synced_lyrics(UnsafeMutableRawPointer(handle), stampBuffer.baseAddress,
                                             lineBuffer.baseAddress, lines.count) == 1
            }
        }
    }
}
