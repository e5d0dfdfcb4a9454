/* libebur128, loaded when the first song is analysed instead of when mhz starts (see
 * CEbur128.h), the way aubio is (Sources/CAubio/aubio_loader.c): the first call of any
 * trampoline (or of mhz_ebur128_available) opens libebur128.so.1 with dlopen(3) and looks
 * every function up with dlsym(3), once (pthread_once(3)). */
#include "CEbur128.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static struct {
    ebur128_state *(*init)(unsigned int channels, unsigned long samplerate, int mode);
    void (*destroy)(ebur128_state **st);
    int (*set_channel)(ebur128_state *st, unsigned int channel_number, int value);
    int (*add_frames_float)(ebur128_state *st, const float *src, size_t frames);
    int (*loudness_global)(ebur128_state *st, double *out);
    int (*true_peak)(ebur128_state *st, unsigned int channel_number, double *out);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_int loaded;
static char load_error[512];
static void *handle;

static void *lookup(const char *name) {
    void *symbol = dlsym(handle, name);
    if (!symbol) snprintf(load_error, sizeof load_error, "libebur128 has no %s", name);
    return symbol;
}

static void load(void) {
    handle = dlopen("libebur128.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libebur128.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "libebur128.so.1");
        return;
    }
    if (!(api.init = lookup("ebur128_init"))) return;
    if (!(api.destroy = lookup("ebur128_destroy"))) return;
    if (!(api.set_channel = lookup("ebur128_set_channel"))) return;
    if (!(api.add_frames_float = lookup("ebur128_add_frames_float"))) return;
    if (!(api.loudness_global = lookup("ebur128_loudness_global"))) return;
    if (!(api.true_peak = lookup("ebur128_true_peak"))) return;
    atomic_store(&loaded, 1);
}

static int ready(void) {
    pthread_once(&once, load);
    return atomic_load(&loaded);
}

int mhz_ebur128_available(void) { return ready(); }

const char *mhz_ebur128_load_error(void) { return ready() ? "" : load_error; }

ebur128_state *mhz_ebur128_init(unsigned int channels, unsigned long samplerate, int mode) {
    return ready() ? api.init(channels, samplerate, mode) : NULL;
}
void mhz_ebur128_destroy(ebur128_state **st) { if (ready() && st && *st) api.destroy(st); }
int mhz_ebur128_set_channel(ebur128_state *st, unsigned int channel_number, int value) {
    return ready() ? api.set_channel(st, channel_number, value) : EBUR128_ERROR_INVALID_MODE;
}
int mhz_ebur128_add_frames_float(ebur128_state *st, const float *src, size_t frames) {
    return ready() ? api.add_frames_float(st, src, frames) : EBUR128_ERROR_INVALID_MODE;
}
int mhz_ebur128_loudness_global(ebur128_state *st, double *out) {
    return ready() ? api.loudness_global(st, out) : EBUR128_ERROR_INVALID_MODE;
}
int mhz_ebur128_true_peak(ebur128_state *st, unsigned int channel_number, double *out) {
    return ready() ? api.true_peak(st, channel_number, out) : EBUR128_ERROR_INVALID_MODE;
}
