#ifndef MHZ_CMPV_H
#define MHZ_CMPV_H
/* libmpv's client API 2.0 (Debian 12: mpv 0.35.1), its declarations as they are, with the
 * library loaded on first use rather than at start (see mpv_loader.c). */
#include <mpv/client.h>

/* Why libmpv could not be loaded (dlerror's words), or NULL when it was, or was not tried. */
const char *mhz_mpv_load_error(void);
#endif
