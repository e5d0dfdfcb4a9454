#ifndef MHZ_CFFMPEG_SHIM_H
#define MHZ_CFFMPEG_SHIM_H
/* FFmpeg's libraries (Debian 12: FFmpeg 5.1, libavcodec 59, the AVChannelLayout `ch_layout`
 * API): demuxing (libavformat), decoding and the libmp3lame encoder (libavcodec),
 * resampling (libswresample), sample FIFOs and dictionaries (libavutil). pkg-config gives
 * -I/usr/include/x86_64-linux-gnu. */
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>

/* Error codes are function-like macros (AVERROR(e) negates a POSIX errno, AVERROR_EOF and
 * AVERROR_INVALIDDATA are FFERRTAG four-character tags): Swift imports none of them. */
static inline int cffmpeg_error_again(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
static inline int cffmpeg_error_from_errno(int e) { return AVERROR(e); }

/* AV_NOPTS_VALUE is a cast expression ((int64_t)UINT64_C(0x8000000000000000)). */
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

/* av_err2str is a macro around a compound literal; this writes the same words into the
 * caller's buffer instead. av_strerror "fills buf with a description of errnum, or a
 * generic one when none is found"; it always NUL-terminates. */
static inline void cffmpeg_strerror(int errnum, char *buf, size_t size) {
    av_strerror(errnum, buf, size);
}

/* A decoder may leave the layout unspecified (AV_CHANNEL_ORDER_UNSPEC: a count, no
 * positions, e.g. WAV without a channel mask); libswresample needs positions to mix.
 * Copies `in` when it names its channels, else writes the default layout for its count. */
static inline int cffmpeg_layout_or_default(const AVChannelLayout *in, AVChannelLayout *out) {
    if (in->order == AV_CHANNEL_ORDER_UNSPEC || !av_channel_layout_check(in)) {
        av_channel_layout_uninit(out);
        av_channel_layout_default(out, in->nb_channels > 0 ? in->nb_channels : 2);
        return 0;
    }
    return av_channel_layout_copy(out, in);
}

/* The default layout for `channels` channels: mono or stereo here (AV_CHANNEL_LAYOUT_MONO
 * and _STEREO are compound-literal macros). */
static inline void cffmpeg_layout_default(AVChannelLayout *out, int channels) {
    av_channel_layout_uninit(out);
    av_channel_layout_default(out, channels);
}

#endif
