#ifndef MHZ_CTAGLIBPICTURES_H
#define MHZ_CTAGLIBPICTURES_H
/* Cover art through TagLib's C++ API (TagLib 1.13), for the one thing its C binding
 * (tag_c.h) cannot do: read embedded pictures. */
#include <stddef.h>

/* Lyrics, through the same C++ API: the module's other header. */
#include "CTagLibLyrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies the embedded front cover of a file opened with taglib_file_new() into a buffer
 * allocated with malloc(), which the caller frees with free().
 *
 * `file` is the TagLib_File pointer of the C binding. It must stay open for the call, made
 * on the thread that uses that file for every other TagLib call (TagLibFile in
 * MusicLibrary).
 *
 * Looks at, by file type: MPEG and WAV ID3v2 APIC frames; FLAC picture blocks (and an ID3v2
 * tag if present); MP4 `covr` items; Ogg Vorbis and Opus METADATA_BLOCK_PICTURE comments.
 * Prefers a picture of type "front cover", else takes the first one.
 *
 * Returns 1 and sets *data and *size when a picture was found, 0 otherwise (then *data is
 * NULL). */
int mhz_taglib_front_cover(void *file, unsigned char **data, size_t *size);

/* Replaces the embedded pictures of a file opened with taglib_file_new() with one front
 * cover (`data`, `size` bytes of `mime`, "image/jpeg" or "image/png"); the caller then saves
 * with taglib_file_save(). Same threading rule as above.
 *
 * Writes, by file type: MPEG ID3v2 APIC; FLAC picture block; MP4 `covr`; Ogg Vorbis and Opus
 * METADATA_BLOCK_PICTURE. Returns 1 when the container took the picture, 0 when it has no
 * place for one (WAV, others). */
int mhz_taglib_set_front_cover(void *file, const unsigned char *data, size_t size, const char *mime);

#ifdef __cplusplus
}
#endif

#endif
