#ifndef MHZ_CMPV_SHIM_H
#define MHZ_CMPV_SHIM_H
/* libmpv client API 2.0 (Debian 12: mpv 0.35.1). Everything needed imports directly. */
#include <mpv/client.h>
#endif
