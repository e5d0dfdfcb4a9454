#ifndef MHZ_CAUBIO_H
#define MHZ_CAUBIO_H
/* aubio 0.4 (Debian 12: libaubio5, single precision: `smpl_t` is float), the library the
 * station's sound analysis reads spectra, descriptors, MFCCs, onsets and beats with. Its
 * FFT is FFTW's (libfftw3f), which libaubio links.
 *
 * Loaded when the first song is analysed, not when mhz starts (aubio_loader.c): libaubio
 * links FFmpeg's libraries, libsndfile and libsamplerate, which a command that analyses
 * nothing must not map. Its headers give the types; the functions mhz calls are the
 * `mhz_`-prefixed trampolines below, one per aubio function of the same name without the
 * prefix. */
#include <aubio/aubio.h>

/* Loads libaubio if that has not happened yet: 1 when it is there, else 0, and
 * mhz_aubio_load_error says why (dlerror's words). aubio's own log (which prints errors to
 * stderr) is silenced when it loads: its failures reach callers as NULL objects. Every
 * trampoline loads it too; when it cannot be loaded, functions returning a pointer return
 * NULL, those returning a number 0, the others do nothing. */
int mhz_aubio_available(void);
const char *mhz_aubio_load_error(void);

fvec_t *mhz_new_fvec(uint_t length);
void mhz_del_fvec(fvec_t *s);
cvec_t *mhz_new_cvec(uint_t length);
void mhz_del_cvec(cvec_t *s);
aubio_pvoc_t *mhz_new_aubio_pvoc(uint_t win_s, uint_t hop_s);
void mhz_del_aubio_pvoc(aubio_pvoc_t *pv);
void mhz_aubio_pvoc_do(aubio_pvoc_t *pv, const fvec_t *in, cvec_t *fftgrain);
aubio_specdesc_t *mhz_new_aubio_specdesc(const char_t *method, uint_t buf_size);
void mhz_del_aubio_specdesc(aubio_specdesc_t *o);
void mhz_aubio_specdesc_do(aubio_specdesc_t *o, const cvec_t *fftgrain, fvec_t *desc);
aubio_mfcc_t *mhz_new_aubio_mfcc(uint_t buf_size, uint_t n_filters, uint_t n_coeffs, uint_t samplerate);
void mhz_del_aubio_mfcc(aubio_mfcc_t *mf);
void mhz_aubio_mfcc_do(aubio_mfcc_t *mf, const cvec_t *in, fvec_t *out);
aubio_tempo_t *mhz_new_aubio_tempo(const char_t *method, uint_t buf_size, uint_t hop_size, uint_t samplerate);
void mhz_del_aubio_tempo(aubio_tempo_t *o);
void mhz_aubio_tempo_do(aubio_tempo_t *o, const fvec_t *input, fvec_t *tempo);
smpl_t mhz_aubio_tempo_get_bpm(aubio_tempo_t *o);
aubio_onset_t *mhz_new_aubio_onset(const char_t *method, uint_t buf_size, uint_t hop_size, uint_t samplerate);
void mhz_del_aubio_onset(aubio_onset_t *o);
void mhz_aubio_onset_do(aubio_onset_t *o, const fvec_t *input, fvec_t *onset);
smpl_t mhz_aubio_zero_crossing_rate(fvec_t *v);
smpl_t mhz_aubio_level_lin(const fvec_t *v);

/* Called once a full set of aubio objects exists: the first time, drops the pages of
 * FFTW's code from mhz's resident set (aubio_loader.c says why); later calls do nothing. */
void mhz_aubio_objects_made(void);

#endif
