#ifndef MHZ_CFFMPEG_H
#define MHZ_CFFMPEG_H
/* FFmpeg's libraries (Debian 12: FFmpeg 5.1, libavformat 59, the AVChannelLayout
 * `ch_layout` API): demuxing (libavformat), decoding and the libmp3lame encoder
 * (libavcodec), resampling (libswresample), sample FIFOs and dictionaries (libavutil).
 *
 * Loaded when the first song is transcoded, not when mhz starts (ffmpeg_loader.c): linked
 * normally they bring some 120 shared libraries that every run of mhz would map and
 * relocate before main. Their headers give the types; the functions mhz calls are the
 * `mhz_`-prefixed trampolines below, one per FFmpeg function of the same name without the
 * prefix. The prefix keeps the trampolines from standing in for FFmpeg's own symbols when
 * its libraries call each other. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>

/* Loads FFmpeg's libraries if that has not happened yet: 1 when they are there, else 0,
 * and mhz_ffmpeg_load_error says why (dlerror's words). Every trampoline loads them too;
 * when they cannot be loaded, functions returning a pointer return NULL, those returning
 * an error code AVERROR(ENOSYS), the others do nothing. */
int mhz_ffmpeg_available(void);
const char *mhz_ffmpeg_load_error(void);

/* FFmpeg's own messages, which av_log's default callback writes to stderr: after this
 * call no FFmpeg message reaches stderr (the callback is installed now if the libraries are
 * loaded, else as soon as they are; the call does not load them). Warnings and errors are
 * handed to `handler` instead, one line each with its "[context @ 0x…] " prefix, on
 * whatever thread logged them; NULL drops them. Failures reach callers as return codes
 * regardless.
 * The callback is process-wide and libavutil is shared with every other user of FFmpeg in
 * the process: libmpv sets its own callback to read FFmpeg's network errors, so a process
 * that plays through libmpv must never call this. */
typedef void (*mhz_ffmpeg_log_handler)(int level, const char *line);
void mhz_ffmpeg_route_log(mhz_ffmpeg_log_handler handler);

AVAudioFifo * mhz_av_audio_fifo_alloc(enum AVSampleFormat sample_fmt, int channels, int nb_samples);
void mhz_av_audio_fifo_free(AVAudioFifo *af);
int mhz_av_audio_fifo_read(AVAudioFifo *af, void **data, int nb_samples);
int mhz_av_audio_fifo_size(AVAudioFifo *af);
int mhz_av_audio_fifo_write(AVAudioFifo *af, void **data, int nb_samples);
int mhz_av_channel_layout_compare(const AVChannelLayout *chl, const AVChannelLayout *chl1);
int mhz_av_channel_layout_copy(AVChannelLayout *dst, const AVChannelLayout *src);
void mhz_av_channel_layout_uninit(AVChannelLayout *channel_layout);
void mhz_av_dict_free(AVDictionary **m);
AVDictionaryEntry * mhz_av_dict_get(const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags);
int mhz_av_dict_set(AVDictionary **pm, const char *key, const char *value, int flags);
int mhz_av_find_best_stream(AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags);
AVFrame * mhz_av_frame_alloc(void);
void mhz_av_frame_free(AVFrame **frame);
int mhz_av_frame_get_buffer(AVFrame *frame, int align);
int mhz_av_frame_make_writable(AVFrame *frame);
void mhz_av_frame_unref(AVFrame *frame);
void mhz_av_free(void *ptr);
void mhz_av_freep(void *ptr);
void * mhz_av_malloc(size_t size);
AVPacket * mhz_av_packet_alloc(void);
void mhz_av_packet_free(AVPacket **pkt);
void mhz_av_packet_rescale_ts(AVPacket *pkt, AVRational tb_src, AVRational tb_dst);
void mhz_av_packet_unref(AVPacket *pkt);
int mhz_av_read_frame(AVFormatContext *s, AVPacket *pkt);
int mhz_av_write_frame(AVFormatContext *s, AVPacket *pkt);
int mhz_av_write_trailer(AVFormatContext *s);
AVCodecContext * mhz_avcodec_alloc_context3(const AVCodec *codec);
const AVCodec * mhz_avcodec_find_decoder(enum AVCodecID id);
const AVCodec * mhz_avcodec_find_encoder_by_name(const char *name);
void mhz_avcodec_free_context(AVCodecContext **avctx);
int mhz_avcodec_open2(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options);
int mhz_avcodec_parameters_from_context(AVCodecParameters *par, const AVCodecContext *codec);
int mhz_avcodec_parameters_to_context(AVCodecContext *codec, const AVCodecParameters *par);
int mhz_avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame);
int mhz_avcodec_receive_packet(AVCodecContext *avctx, AVPacket *avpkt);
int mhz_avcodec_send_frame(AVCodecContext *avctx, const AVFrame *frame);
int mhz_avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt);
int mhz_avformat_alloc_output_context2(AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename);
void mhz_avformat_close_input(AVFormatContext **s);
int mhz_avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options);
void mhz_avformat_free_context(AVFormatContext *s);
AVStream * mhz_avformat_new_stream(AVFormatContext *s, const AVCodec *c);
int mhz_avformat_open_input(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options);
int mhz_avformat_write_header(AVFormatContext *s, AVDictionary **options);
AVIOContext * mhz_avio_alloc_context(unsigned char *buffer, int buffer_size, int write_flag, void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), int64_t (*seek)(void *opaque, int64_t offset, int whence));
void mhz_avio_context_free(AVIOContext **s);
void mhz_avio_flush(AVIOContext *s);
int mhz_swr_alloc_set_opts2(struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx);
int mhz_swr_convert(struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in , int in_count);
void mhz_swr_free(struct SwrContext **s);
int mhz_swr_get_out_samples(struct SwrContext *s, int in_samples);
int mhz_swr_init(struct SwrContext *s);
int mhz_av_strerror(int errnum, char *errbuf, size_t errbuf_size);
int mhz_av_channel_layout_check(const AVChannelLayout *channel_layout);
void mhz_av_channel_layout_default(AVChannelLayout *ch_layout, int nb_channels);
void mhz_av_log_set_level(int level);
const char * mhz_avcodec_get_name(enum AVCodecID id);
AVFormatContext * mhz_avformat_alloc_context(void);
const AVCodec * mhz_avcodec_find_encoder(enum AVCodecID id);
int mhz_avcodec_parameters_copy(AVCodecParameters *dst, const AVCodecParameters *src);
int64_t mhz_av_rescale_q(int64_t a, AVRational bq, AVRational cq);
int mhz_av_seek_frame(AVFormatContext *s, int stream_index, int64_t timestamp, int flags);
void mhz_avcodec_flush_buffers(AVCodecContext *avctx);

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
    if (mhz_av_strerror(errnum, buf, size) < 0 && errnum == AVERROR(ENOSYS) && size > 0) {
        buf[0] = 0;
    }
}

/* A decoder may leave the layout unspecified (AV_CHANNEL_ORDER_UNSPEC: a count, no
 * positions, e.g. WAV without a channel mask); libswresample needs positions to mix.
 * Copies `in` when it names its channels, else writes the default layout for its count. */
static inline int cffmpeg_layout_or_default(const AVChannelLayout *in, AVChannelLayout *out) {
    if (in->order == AV_CHANNEL_ORDER_UNSPEC || !mhz_av_channel_layout_check(in)) {
        mhz_av_channel_layout_uninit(out);
        mhz_av_channel_layout_default(out, in->nb_channels > 0 ? in->nb_channels : 2);
        return 0;
    }
    return mhz_av_channel_layout_copy(out, in);
}

/* The default layout for `channels` channels: mono or stereo here (AV_CHANNEL_LAYOUT_MONO
 * and _STEREO are compound-literal macros). */
static inline void cffmpeg_layout_default(AVChannelLayout *out, int channels) {
    mhz_av_channel_layout_uninit(out);
    mhz_av_channel_layout_default(out, channels);
}

#endif
