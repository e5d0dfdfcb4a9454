/* libaubio, loaded when the first song is analysed instead of when mhz starts (see
 * CAubio.h). The first call of any trampoline (or of mhz_aubio_available) opens
 * libaubio.so.5 with dlopen(3) and looks every function up with dlsym(3), once
 * (pthread_once(3)). */
#define _GNU_SOURCE /* dl_iterate_phdr(3) and struct dl_phdr_info (<link.h>) */
#include "CAubio.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct {
    fvec_t *(*new_fvec)(uint_t length);
    void (*del_fvec)(fvec_t *s);
    cvec_t *(*new_cvec)(uint_t length);
    void (*del_cvec)(cvec_t *s);
    aubio_pvoc_t *(*new_aubio_pvoc)(uint_t win_s, uint_t hop_s);
    void (*del_aubio_pvoc)(aubio_pvoc_t *pv);
    void (*aubio_pvoc_do)(aubio_pvoc_t *pv, const fvec_t *in, cvec_t *fftgrain);
    aubio_specdesc_t *(*new_aubio_specdesc)(const char_t *method, uint_t buf_size);
    void (*del_aubio_specdesc)(aubio_specdesc_t *o);
    void (*aubio_specdesc_do)(aubio_specdesc_t *o, const cvec_t *fftgrain, fvec_t *desc);
    aubio_mfcc_t *(*new_aubio_mfcc)(uint_t buf_size, uint_t n_filters, uint_t n_coeffs, uint_t samplerate);
    void (*del_aubio_mfcc)(aubio_mfcc_t *mf);
    void (*aubio_mfcc_do)(aubio_mfcc_t *mf, const cvec_t *in, fvec_t *out);
    aubio_tempo_t *(*new_aubio_tempo)(const char_t *method, uint_t buf_size, uint_t hop_size, uint_t samplerate);
    void (*del_aubio_tempo)(aubio_tempo_t *o);
    void (*aubio_tempo_do)(aubio_tempo_t *o, const fvec_t *input, fvec_t *tempo);
    smpl_t (*aubio_tempo_get_bpm)(aubio_tempo_t *o);
    aubio_onset_t *(*new_aubio_onset)(const char_t *method, uint_t buf_size, uint_t hop_size, uint_t samplerate);
    void (*del_aubio_onset)(aubio_onset_t *o);
    void (*aubio_onset_do)(aubio_onset_t *o, const fvec_t *input, fvec_t *onset);
    smpl_t (*aubio_zero_crossing_rate)(fvec_t *v);
    smpl_t (*aubio_level_lin)(const fvec_t *v);
    void (*aubio_log_set_function)(aubio_log_function_t fun, void *data);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_int loaded;
static char load_error[512];
static void *handle;

/* aubio's default log function prints errors and warnings to stderr, which a station's
 * stderr must not carry; every failure mhz acts on comes back as a NULL object instead. */
static void quiet(sint_t level, const char_t *message, void *data) {
    (void)level;
    (void)message;
    (void)data;
}

static void *lookup(const char *name) {
    void *symbol = dlsym(handle, name);
    if (!symbol) snprintf(load_error, sizeof load_error, "aubio has no %s", name);
    return symbol;
}

static void load(void) {
    handle = dlopen("libaubio.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libaubio.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "libaubio.so.5");
        return;
    }
    if (!(api.new_fvec = lookup("new_fvec"))) return;
    if (!(api.del_fvec = lookup("del_fvec"))) return;
    if (!(api.new_cvec = lookup("new_cvec"))) return;
    if (!(api.del_cvec = lookup("del_cvec"))) return;
    if (!(api.new_aubio_pvoc = lookup("new_aubio_pvoc"))) return;
    if (!(api.del_aubio_pvoc = lookup("del_aubio_pvoc"))) return;
    if (!(api.aubio_pvoc_do = lookup("aubio_pvoc_do"))) return;
    if (!(api.new_aubio_specdesc = lookup("new_aubio_specdesc"))) return;
    if (!(api.del_aubio_specdesc = lookup("del_aubio_specdesc"))) return;
    if (!(api.aubio_specdesc_do = lookup("aubio_specdesc_do"))) return;
    if (!(api.new_aubio_mfcc = lookup("new_aubio_mfcc"))) return;
    if (!(api.del_aubio_mfcc = lookup("del_aubio_mfcc"))) return;
    if (!(api.aubio_mfcc_do = lookup("aubio_mfcc_do"))) return;
    if (!(api.new_aubio_tempo = lookup("new_aubio_tempo"))) return;
    if (!(api.del_aubio_tempo = lookup("del_aubio_tempo"))) return;
    if (!(api.aubio_tempo_do = lookup("aubio_tempo_do"))) return;
    if (!(api.aubio_tempo_get_bpm = lookup("aubio_tempo_get_bpm"))) return;
    if (!(api.new_aubio_onset = lookup("new_aubio_onset"))) return;
    if (!(api.del_aubio_onset = lookup("del_aubio_onset"))) return;
    if (!(api.aubio_onset_do = lookup("aubio_onset_do"))) return;
    if (!(api.aubio_zero_crossing_rate = lookup("aubio_zero_crossing_rate"))) return;
    if (!(api.aubio_level_lin = lookup("aubio_level_lin"))) return;
    if (!(api.aubio_log_set_function = lookup("aubio_log_set_function"))) return;
    /* "Set logging function for all levels" (utils/log.h). */
    api.aubio_log_set_function(quiet, NULL);
    atomic_store(&loaded, 1);
}

static int ready(void) {
    pthread_once(&once, load);
    return atomic_load(&loaded);
}

int mhz_aubio_available(void) { return ready(); }

const char *mhz_aubio_load_error(void) { return ready() ? "" : load_error; }

fvec_t *mhz_new_fvec(uint_t length) { return ready() ? api.new_fvec(length) : NULL; }
void mhz_del_fvec(fvec_t *s) { if (ready() && s) api.del_fvec(s); }
cvec_t *mhz_new_cvec(uint_t length) { return ready() ? api.new_cvec(length) : NULL; }
void mhz_del_cvec(cvec_t *s) { if (ready() && s) api.del_cvec(s); }

aubio_pvoc_t *mhz_new_aubio_pvoc(uint_t win_s, uint_t hop_s) {
    return ready() ? api.new_aubio_pvoc(win_s, hop_s) : NULL;
}
void mhz_del_aubio_pvoc(aubio_pvoc_t *pv) { if (ready() && pv) api.del_aubio_pvoc(pv); }
void mhz_aubio_pvoc_do(aubio_pvoc_t *pv, const fvec_t *in, cvec_t *fftgrain) {
    if (ready()) api.aubio_pvoc_do(pv, in, fftgrain);
}

aubio_specdesc_t *mhz_new_aubio_specdesc(const char_t *method, uint_t buf_size) {
    return ready() ? api.new_aubio_specdesc(method, buf_size) : NULL;
}
void mhz_del_aubio_specdesc(aubio_specdesc_t *o) { if (ready() && o) api.del_aubio_specdesc(o); }
void mhz_aubio_specdesc_do(aubio_specdesc_t *o, const cvec_t *fftgrain, fvec_t *desc) {
    if (ready()) api.aubio_specdesc_do(o, fftgrain, desc);
}

aubio_mfcc_t *mhz_new_aubio_mfcc(uint_t buf_size, uint_t n_filters, uint_t n_coeffs, uint_t samplerate) {
    return ready() ? api.new_aubio_mfcc(buf_size, n_filters, n_coeffs, samplerate) : NULL;
}
void mhz_del_aubio_mfcc(aubio_mfcc_t *mf) { if (ready() && mf) api.del_aubio_mfcc(mf); }
void mhz_aubio_mfcc_do(aubio_mfcc_t *mf, const cvec_t *in, fvec_t *out) {
    if (ready()) api.aubio_mfcc_do(mf, in, out);
}

aubio_tempo_t *mhz_new_aubio_tempo(const char_t *method, uint_t buf_size, uint_t hop_size, uint_t samplerate) {
    return ready() ? api.new_aubio_tempo(method, buf_size, hop_size, samplerate) : NULL;
}
void mhz_del_aubio_tempo(aubio_tempo_t *o) { if (ready() && o) api.del_aubio_tempo(o); }
void mhz_aubio_tempo_do(aubio_tempo_t *o, const fvec_t *input, fvec_t *tempo) {
    if (ready()) api.aubio_tempo_do(o, input, tempo);
}
smpl_t mhz_aubio_tempo_get_bpm(aubio_tempo_t *o) { return ready() ? api.aubio_tempo_get_bpm(o) : 0; }

aubio_onset_t *mhz_new_aubio_onset(const char_t *method, uint_t buf_size, uint_t hop_size, uint_t samplerate) {
    return ready() ? api.new_aubio_onset(method, buf_size, hop_size, samplerate) : NULL;
}
void mhz_del_aubio_onset(aubio_onset_t *o) { if (ready() && o) api.del_aubio_onset(o); }
void mhz_aubio_onset_do(aubio_onset_t *o, const fvec_t *input, fvec_t *onset) {
    if (ready()) api.aubio_onset_do(o, input, onset);
}

smpl_t mhz_aubio_zero_crossing_rate(fvec_t *v) { return ready() ? api.aubio_zero_crossing_rate(v) : 0; }
smpl_t mhz_aubio_level_lin(const fvec_t *v) { return ready() ? api.aubio_level_lin(v) : 0; }

/* FFTW's planner, the first time it is asked for a plan, calls the registration function
 * of every codelet it has, and those are spread over all of libfftw3f's 1.8 MiB of code;
 * later plans and the transforms themselves use less than half of it. The library stays
 * mapped for the life of mhz (glibc does not unmap libaubio's dependencies on dlclose), so
 * without this the whole of its code stays in mhz's resident set. MADV_DONTNEED drops this
 * process's pages of the range: "subsequent accesses of pages in the range will succeed,
 * but will result in ... repopulating the memory contents from the up-to-date contents of
 * the underlying mapped file" (madvise(2)). Only segments that are not writable are given
 * back, so nothing FFTW wrote is lost; code it runs again is read back from the page cache.
 * (MADV_PAGEOUT would skip pages another process maps too, and evict them from the cache.) */
static int release_fftw_code(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libfftw3f")) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X) || (segment->p_flags & PF_W)) continue;
        /* Whole pages inside the segment only: a page it shares with a neighbour is kept. */
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz) & ~(page - 1);
        if (end > start) (void)madvise((void *)start, end - start, MADV_DONTNEED);
    }
    return 1;
}

static pthread_once_t made_once = PTHREAD_ONCE_INIT;

static void first_objects_made(void) { dl_iterate_phdr(release_fftw_code, NULL); }

void mhz_aubio_objects_made(void) {
    if (ready()) pthread_once(&made_once, first_objects_made);
}
