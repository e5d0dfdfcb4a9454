#ifndef MHZ_CTAGLIBLYRICS_H
#define MHZ_CTAGLIBLYRICS_H
/* Embedded lyrics through TagLib's C++ API (TagLib 1.13): its C binding (tag_c.h) reads
 * only the basic fields. Same rules as CTagLibPictures.h: `file` is the TagLib_File pointer
 * of the C binding, open for the call, used on the thread that opened it. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies the file's embedded lyrics, as UTF-8, into a buffer allocated with malloc(), which
 * the caller frees with free(). Looked for in this order:
 *   1. an ID3v2 SYLT frame with millisecond time stamps (MPEG, FLAC, WAV, AIFF), written as
 *      LRC text: one `[mm:ss.xx]line` per synchronized text;
 *   2. the `LYRICS` property (ID3v2 USLT, Vorbis and FLAC `LYRICS`, MP4 `©lyr`, APE);
 *   3. the `UNSYNCEDLYRICS` property (a Vorbis comment some taggers write).
 * Returns 1 and sets *text when lyrics were found, 0 otherwise (then *text is NULL). */
int mhz_taglib_lyrics(void *file, char **text);

/* Sets the `LYRICS` property (USLT, a Vorbis comment, `©lyr`) to `text` (UTF-8), keeping
 * the other properties; the caller then saves with taglib_file_save(). Returns 1 when the
 * file kept it. */
int mhz_taglib_set_lyrics(void *file, const char *text);

/* Adds an ID3v2 SYLT frame (lyrics, millisecond time stamps, `count` lines: line i shown
 * from `milliseconds[i]`) to an MPEG file's ID3v2 tag, replacing any SYLT frame; the caller
 * then saves with taglib_file_save(). Returns 1 when the file is MPEG, 0 otherwise. */
int mhz_taglib_set_synced_lyrics(void *file, const unsigned int *milliseconds, const char *const *lines, size_t count);

#ifdef __cplusplus
}
#endif

#endif
