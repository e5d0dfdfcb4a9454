#ifndef MHZ_CEBUR128_H
#define MHZ_CEBUR128_H
/* libebur128 1.2 (Debian 12: libebur128-1), the EBU R 128 / ITU-R BS.1770 loudness meter the
 * station's sound analysis measures each track's integrated loudness and true peak with.
 *
 * Loaded when the first song is analysed, not when mhz starts (ebur128_loader.c), like aubio:
 * a machine without it still analyses sound, only without loudness. Its header gives the
 * types and constants; the functions mhz calls are the `mhz_`-prefixed trampolines below,
 * one per libebur128 function of the same name without the prefix. */
#include <ebur128.h>

/* Loads libebur128 if that has not happened yet: 1 when it is there, else 0, and
 * mhz_ebur128_load_error says why (dlerror's words). Every trampoline loads it too; when it
 * cannot be loaded, mhz_ebur128_init returns NULL, the functions returning a status return
 * EBUR128_ERROR_INVALID_MODE, mhz_ebur128_destroy does nothing. */
int mhz_ebur128_available(void);
const char *mhz_ebur128_load_error(void);

ebur128_state *mhz_ebur128_init(unsigned int channels, unsigned long samplerate, int mode);
void mhz_ebur128_destroy(ebur128_state **st);
int mhz_ebur128_set_channel(ebur128_state *st, unsigned int channel_number, int value);
int mhz_ebur128_add_frames_float(ebur128_state *st, const float *src, size_t frames);
int mhz_ebur128_loudness_global(ebur128_state *st, double *out);
int mhz_ebur128_true_peak(ebur128_state *st, unsigned int channel_number, double *out);

#endif
