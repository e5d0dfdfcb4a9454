#ifndef MHZ_CTAGLIB_SHIM_H
#define MHZ_CTAGLIB_SHIM_H
/* TagLib's C binding (Debian 12: taglib 1.13). pkg-config gives -I/usr/include/taglib. */
#include <tag_c.h>
#endif
