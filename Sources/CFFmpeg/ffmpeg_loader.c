/* FFmpeg's libraries, loaded when the first song is transcoded instead of when mhz starts
 * (see CFFmpeg.h). The first call of any trampoline (or of mhz_ffmpeg_available) opens
 * libavformat.so.59 and libswresample.so.4 with dlopen(3), which bring libavcodec and
 * libavutil, and looks every function up with dlsym(3), once (pthread_once(3)).
 * `dlsym(handle, …)` searches "the shared object referred to by handle and the objects it
 * depends on", so the avcodec and avutil functions are found through libavformat's handle. */
#include "CFFmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static struct {
    AVAudioFifo * (*av_audio_fifo_alloc)(enum AVSampleFormat sample_fmt, int channels, int nb_samples);
    void (*av_audio_fifo_free)(AVAudioFifo *af);
    int (*av_audio_fifo_read)(AVAudioFifo *af, void **data, int nb_samples);
    int (*av_audio_fifo_size)(AVAudioFifo *af);
    int (*av_audio_fifo_write)(AVAudioFifo *af, void **data, int nb_samples);
    int (*av_channel_layout_compare)(const AVChannelLayout *chl, const AVChannelLayout *chl1);
    int (*av_channel_layout_copy)(AVChannelLayout *dst, const AVChannelLayout *src);
    void (*av_channel_layout_uninit)(AVChannelLayout *channel_layout);
    void (*av_dict_free)(AVDictionary **m);
    AVDictionaryEntry * (*av_dict_get)(const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags);
    int (*av_dict_set)(AVDictionary **pm, const char *key, const char *value, int flags);
    int (*av_find_best_stream)(AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags);
    AVFrame * (*av_frame_alloc)(void);
    void (*av_frame_free)(AVFrame **frame);
    int (*av_frame_get_buffer)(AVFrame *frame, int align);
    int (*av_frame_make_writable)(AVFrame *frame);
    void (*av_frame_unref)(AVFrame *frame);
    void (*av_free)(void *ptr);
    void (*av_freep)(void *ptr);
    void * (*av_malloc)(size_t size);
    AVPacket * (*av_packet_alloc)(void);
    void (*av_packet_free)(AVPacket **pkt);
    void (*av_packet_rescale_ts)(AVPacket *pkt, AVRational tb_src, AVRational tb_dst);
    void (*av_packet_unref)(AVPacket *pkt);
    int (*av_read_frame)(AVFormatContext *s, AVPacket *pkt);
    int (*av_write_frame)(AVFormatContext *s, AVPacket *pkt);
    int (*av_write_trailer)(AVFormatContext *s);
    AVCodecContext * (*avcodec_alloc_context3)(const AVCodec *codec);
    const AVCodec * (*avcodec_find_decoder)(enum AVCodecID id);
    const AVCodec * (*avcodec_find_encoder_by_name)(const char *name);
    void (*avcodec_free_context)(AVCodecContext **avctx);
    int (*avcodec_open2)(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options);
    int (*avcodec_parameters_from_context)(AVCodecParameters *par, const AVCodecContext *codec);
    int (*avcodec_parameters_to_context)(AVCodecContext *codec, const AVCodecParameters *par);
    int (*avcodec_receive_frame)(AVCodecContext *avctx, AVFrame *frame);
    int (*avcodec_receive_packet)(AVCodecContext *avctx, AVPacket *avpkt);
    int (*avcodec_send_frame)(AVCodecContext *avctx, const AVFrame *frame);
    int (*avcodec_send_packet)(AVCodecContext *avctx, const AVPacket *avpkt);
    int (*avformat_alloc_output_context2)(AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename);
    void (*avformat_close_input)(AVFormatContext **s);
    int (*avformat_find_stream_info)(AVFormatContext *ic, AVDictionary **options);
    void (*avformat_free_context)(AVFormatContext *s);
    AVStream * (*avformat_new_stream)(AVFormatContext *s, const AVCodec *c);
    int (*avformat_open_input)(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options);
    int (*avformat_write_header)(AVFormatContext *s, AVDictionary **options);
    AVIOContext * (*avio_alloc_context)(unsigned char *buffer, int buffer_size, int write_flag, void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), int64_t (*seek)(void *opaque, int64_t offset, int whence));
    void (*avio_context_free)(AVIOContext **s);
    void (*avio_flush)(AVIOContext *s);
    int (*swr_alloc_set_opts2)(struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx);
    int (*swr_convert)(struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in , int in_count);
    void (*swr_free)(struct SwrContext **s);
    int (*swr_get_out_samples)(struct SwrContext *s, int in_samples);
    int (*swr_init)(struct SwrContext *s);
    int (*av_strerror)(int errnum, char *errbuf, size_t errbuf_size);
    int (*av_channel_layout_check)(const AVChannelLayout *channel_layout);
    void (*av_channel_layout_default)(AVChannelLayout *ch_layout, int nb_channels);
    void (*av_log_set_level)(int level);
    const char * (*avcodec_get_name)(enum AVCodecID id);
    void (*av_log_set_callback)(void (*callback)(void *, int, const char *, va_list));
    int (*av_log_format_line2)(void *ptr, int level, const char *fmt, va_list vl, char *line, int line_size, int *print_prefix);
    AVFormatContext * (*avformat_alloc_context)(void);
    const AVCodec * (*avcodec_find_encoder)(enum AVCodecID id);
    int (*avcodec_parameters_copy)(AVCodecParameters *dst, const AVCodecParameters *src);
    int64_t (*av_rescale_q)(int64_t a, AVRational bq, AVRational cq);
    int (*av_seek_frame)(AVFormatContext *s, int stream_index, int64_t timestamp, int flags);
    void (*avcodec_flush_buffers)(AVCodecContext *avctx);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_int loaded;
static char load_error[512];
static void *handles[2];

/* Where FFmpeg's warnings and errors go once mhz_ffmpeg_route_log was called, and whether
 * it was (so the libraries loaded later install the callback). */
static _Atomic(mhz_ffmpeg_log_handler) log_handler;
static atomic_int log_routed;

/* The av_log callback of mhz_ffmpeg_route_log. av_log_set_callback: "The callback must be
 * thread safe, even if the application does not use threads itself as some codecs are
 * multithreaded." Messages at AV_LOG_WARNING or above reach the handler as one line, with
 * the context's "[name @ 0x…] " prefix (av_log_format_line2); the rest are dropped. */
static void route_log(void *context, int level, const char *format, va_list arguments) {
    if (level > AV_LOG_WARNING) return;
    mhz_ffmpeg_log_handler handler = atomic_load(&log_handler);
    if (!handler) return;
    char line[1024];
    int prefix = 1;
    if (api.av_log_format_line2(context, level, format, arguments, line, (int)sizeof line, &prefix) < 0) return;
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
    if (length > 0) handler(level, line);
}

static void *lookup(const char *name) {
    for (int i = 0; i < 2; i++) {
        void *symbol = handles[i] ? dlsym(handles[i], name) : NULL;
        if (symbol) return symbol;
    }
    snprintf(load_error, sizeof load_error, "FFmpeg has no %s", name);
    return NULL;
}

static void *open_library(const char *versioned, const char *plain) {
    void *handle = dlopen(versioned, RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen(plain, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : versioned);
    }
    return handle;
}

static void load(void) {
    handles[0] = open_library("libavformat.so.59", "libavformat.so");
    handles[1] = open_library("libswresample.so.4", "libswresample.so");
    if (!handles[0] || !handles[1]) return;
    if (!(api.av_audio_fifo_alloc = lookup("av_audio_fifo_alloc"))) return;
    if (!(api.av_audio_fifo_free = lookup("av_audio_fifo_free"))) return;
    if (!(api.av_audio_fifo_read = lookup("av_audio_fifo_read"))) return;
    if (!(api.av_audio_fifo_size = lookup("av_audio_fifo_size"))) return;
    if (!(api.av_audio_fifo_write = lookup("av_audio_fifo_write"))) return;
    if (!(api.av_channel_layout_compare = lookup("av_channel_layout_compare"))) return;
    if (!(api.av_channel_layout_copy = lookup("av_channel_layout_copy"))) return;
    if (!(api.av_channel_layout_uninit = lookup("av_channel_layout_uninit"))) return;
    if (!(api.av_dict_free = lookup("av_dict_free"))) return;
    if (!(api.av_dict_get = lookup("av_dict_get"))) return;
    if (!(api.av_dict_set = lookup("av_dict_set"))) return;
    if (!(api.av_find_best_stream = lookup("av_find_best_stream"))) return;
    if (!(api.av_frame_alloc = lookup("av_frame_alloc"))) return;
    if (!(api.av_frame_free = lookup("av_frame_free"))) return;
    if (!(api.av_frame_get_buffer = lookup("av_frame_get_buffer"))) return;
    if (!(api.av_frame_make_writable = lookup("av_frame_make_writable"))) return;
    if (!(api.av_frame_unref = lookup("av_frame_unref"))) return;
    if (!(api.av_free = lookup("av_free"))) return;
    if (!(api.av_freep = lookup("av_freep"))) return;
    if (!(api.av_malloc = lookup("av_malloc"))) return;
    if (!(api.av_packet_alloc = lookup("av_packet_alloc"))) return;
    if (!(api.av_packet_free = lookup("av_packet_free"))) return;
    if (!(api.av_packet_rescale_ts = lookup("av_packet_rescale_ts"))) return;
    if (!(api.av_packet_unref = lookup("av_packet_unref"))) return;
    if (!(api.av_read_frame = lookup("av_read_frame"))) return;
    if (!(api.av_write_frame = lookup("av_write_frame"))) return;
    if (!(api.av_write_trailer = lookup("av_write_trailer"))) return;
    if (!(api.avcodec_alloc_context3 = lookup("avcodec_alloc_context3"))) return;
    if (!(api.avcodec_find_decoder = lookup("avcodec_find_decoder"))) return;
    if (!(api.avcodec_find_encoder_by_name = lookup("avcodec_find_encoder_by_name"))) return;
    if (!(api.avcodec_free_context = lookup("avcodec_free_context"))) return;
    if (!(api.avcodec_open2 = lookup("avcodec_open2"))) return;
    if (!(api.avcodec_parameters_from_context = lookup("avcodec_parameters_from_context"))) return;
    if (!(api.avcodec_parameters_to_context = lookup("avcodec_parameters_to_context"))) return;
    if (!(api.avcodec_receive_frame = lookup("avcodec_receive_frame"))) return;
    if (!(api.avcodec_receive_packet = lookup("avcodec_receive_packet"))) return;
    if (!(api.avcodec_send_frame = lookup("avcodec_send_frame"))) return;
    if (!(api.avcodec_send_packet = lookup("avcodec_send_packet"))) return;
    if (!(api.avformat_alloc_output_context2 = lookup("avformat_alloc_output_context2"))) return;
    if (!(api.avformat_close_input = lookup("avformat_close_input"))) return;
    if (!(api.avformat_find_stream_info = lookup("avformat_find_stream_info"))) return;
    if (!(api.avformat_free_context = lookup("avformat_free_context"))) return;
    if (!(api.avformat_new_stream = lookup("avformat_new_stream"))) return;
    if (!(api.avformat_open_input = lookup("avformat_open_input"))) return;
    if (!(api.avformat_write_header = lookup("avformat_write_header"))) return;
    if (!(api.avio_alloc_context = lookup("avio_alloc_context"))) return;
    if (!(api.avio_context_free = lookup("avio_context_free"))) return;
    if (!(api.avio_flush = lookup("avio_flush"))) return;
    if (!(api.swr_alloc_set_opts2 = lookup("swr_alloc_set_opts2"))) return;
    if (!(api.swr_convert = lookup("swr_convert"))) return;
    if (!(api.swr_free = lookup("swr_free"))) return;
    if (!(api.swr_get_out_samples = lookup("swr_get_out_samples"))) return;
    if (!(api.swr_init = lookup("swr_init"))) return;
    if (!(api.av_strerror = lookup("av_strerror"))) return;
    if (!(api.av_channel_layout_check = lookup("av_channel_layout_check"))) return;
    if (!(api.av_channel_layout_default = lookup("av_channel_layout_default"))) return;
    if (!(api.av_log_set_level = lookup("av_log_set_level"))) return;
    if (!(api.avcodec_get_name = lookup("avcodec_get_name"))) return;
    if (!(api.av_log_set_callback = lookup("av_log_set_callback"))) return;
    if (!(api.av_log_format_line2 = lookup("av_log_format_line2"))) return;
    if (!(api.avformat_alloc_context = lookup("avformat_alloc_context"))) return;
    if (!(api.avcodec_find_encoder = lookup("avcodec_find_encoder"))) return;
    if (!(api.avcodec_parameters_copy = lookup("avcodec_parameters_copy"))) return;
    if (!(api.av_rescale_q = lookup("av_rescale_q"))) return;
    if (!(api.av_seek_frame = lookup("av_seek_frame"))) return;
    if (!(api.avcodec_flush_buffers = lookup("avcodec_flush_buffers"))) return;
    /* Set before `log_routed` is read, as mhz_ffmpeg_route_log sets that flag before it
     * reads `loaded`: whichever comes second installs the callback. */
    atomic_store(&loaded, 1);
    if (atomic_load(&log_routed)) api.av_log_set_callback(route_log);
}

static int ready(void) {
    pthread_once(&once, load);
    return loaded;
}

int mhz_ffmpeg_available(void) {
    return ready();
}

void mhz_ffmpeg_route_log(mhz_ffmpeg_log_handler handler) {
    atomic_store(&log_handler, handler);
    atomic_store(&log_routed, 1);
    if (atomic_load(&loaded)) api.av_log_set_callback(route_log);
}

const char *mhz_ffmpeg_load_error(void) {
    ready();
    return loaded ? "" : load_error;
}

AVAudioFifo * mhz_av_audio_fifo_alloc(enum AVSampleFormat sample_fmt, int channels, int nb_samples) {
    return ready() ? api.av_audio_fifo_alloc(sample_fmt, channels, nb_samples) : NULL;
}

void mhz_av_audio_fifo_free(AVAudioFifo *af) {
    if (ready()) api.av_audio_fifo_free(af);
}

int mhz_av_audio_fifo_read(AVAudioFifo *af, void **data, int nb_samples) {
    return ready() ? api.av_audio_fifo_read(af, data, nb_samples) : AVERROR(ENOSYS);
}

int mhz_av_audio_fifo_size(AVAudioFifo *af) {
    return ready() ? api.av_audio_fifo_size(af) : AVERROR(ENOSYS);
}

int mhz_av_audio_fifo_write(AVAudioFifo *af, void **data, int nb_samples) {
    return ready() ? api.av_audio_fifo_write(af, data, nb_samples) : AVERROR(ENOSYS);
}

int mhz_av_channel_layout_compare(const AVChannelLayout *chl, const AVChannelLayout *chl1) {
    return ready() ? api.av_channel_layout_compare(chl, chl1) : AVERROR(ENOSYS);
}

int mhz_av_channel_layout_copy(AVChannelLayout *dst, const AVChannelLayout *src) {
    return ready() ? api.av_channel_layout_copy(dst, src) : AVERROR(ENOSYS);
}

void mhz_av_channel_layout_uninit(AVChannelLayout *channel_layout) {
    if (ready()) api.av_channel_layout_uninit(channel_layout);
}

void mhz_av_dict_free(AVDictionary **m) {
    if (ready()) api.av_dict_free(m);
}

AVDictionaryEntry * mhz_av_dict_get(const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags) {
    return ready() ? api.av_dict_get(m, key, prev, flags) : NULL;
}

int mhz_av_dict_set(AVDictionary **pm, const char *key, const char *value, int flags) {
    return ready() ? api.av_dict_set(pm, key, value, flags) : AVERROR(ENOSYS);
}

int mhz_av_find_best_stream(AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags) {
    return ready() ? api.av_find_best_stream(ic, type, wanted_stream_nb, related_stream, decoder_ret, flags) : AVERROR(ENOSYS);
}

AVFrame * mhz_av_frame_alloc(void) {
    return ready() ? api.av_frame_alloc() : NULL;
}

void mhz_av_frame_free(AVFrame **frame) {
    if (ready()) api.av_frame_free(frame);
}

int mhz_av_frame_get_buffer(AVFrame *frame, int align) {
    return ready() ? api.av_frame_get_buffer(frame, align) : AVERROR(ENOSYS);
}

int mhz_av_frame_make_writable(AVFrame *frame) {
    return ready() ? api.av_frame_make_writable(frame) : AVERROR(ENOSYS);
}

void mhz_av_frame_unref(AVFrame *frame) {
    if (ready()) api.av_frame_unref(frame);
}

void mhz_av_free(void *ptr) {
    if (ready()) api.av_free(ptr);
}

void mhz_av_freep(void *ptr) {
    if (ready()) api.av_freep(ptr);
}

void * mhz_av_malloc(size_t size) {
    return ready() ? api.av_malloc(size) : NULL;
}

AVPacket * mhz_av_packet_alloc(void) {
    return ready() ? api.av_packet_alloc() : NULL;
}

void mhz_av_packet_free(AVPacket **pkt) {
    if (ready()) api.av_packet_free(pkt);
}

void mhz_av_packet_rescale_ts(AVPacket *pkt, AVRational tb_src, AVRational tb_dst) {
    if (ready()) api.av_packet_rescale_ts(pkt, tb_src, tb_dst);
}

void mhz_av_packet_unref(AVPacket *pkt) {
    if (ready()) api.av_packet_unref(pkt);
}

int mhz_av_read_frame(AVFormatContext *s, AVPacket *pkt) {
    return ready() ? api.av_read_frame(s, pkt) : AVERROR(ENOSYS);
}

int mhz_av_write_frame(AVFormatContext *s, AVPacket *pkt) {
    return ready() ? api.av_write_frame(s, pkt) : AVERROR(ENOSYS);
}

int mhz_av_write_trailer(AVFormatContext *s) {
    return ready() ? api.av_write_trailer(s) : AVERROR(ENOSYS);
}

AVCodecContext * mhz_avcodec_alloc_context3(const AVCodec *codec) {
    return ready() ? api.avcodec_alloc_context3(codec) : NULL;
}

const AVCodec * mhz_avcodec_find_decoder(enum AVCodecID id) {
    return ready() ? api.avcodec_find_decoder(id) : NULL;
}

const AVCodec * mhz_avcodec_find_encoder_by_name(const char *name) {
    return ready() ? api.avcodec_find_encoder_by_name(name) : NULL;
}

void mhz_avcodec_free_context(AVCodecContext **avctx) {
    if (ready()) api.avcodec_free_context(avctx);
}

int mhz_avcodec_open2(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options) {
    return ready() ? api.avcodec_open2(avctx, codec, options) : AVERROR(ENOSYS);
}

int mhz_avcodec_parameters_from_context(AVCodecParameters *par, const AVCodecContext *codec) {
    return ready() ? api.avcodec_parameters_from_context(par, codec) : AVERROR(ENOSYS);
}

int mhz_avcodec_parameters_to_context(AVCodecContext *codec, const AVCodecParameters *par) {
    return ready() ? api.avcodec_parameters_to_context(codec, par) : AVERROR(ENOSYS);
}

int mhz_avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame) {
    return ready() ? api.avcodec_receive_frame(avctx, frame) : AVERROR(ENOSYS);
}

int mhz_avcodec_receive_packet(AVCodecContext *avctx, AVPacket *avpkt) {
    return ready() ? api.avcodec_receive_packet(avctx, avpkt) : AVERROR(ENOSYS);
}

int mhz_avcodec_send_frame(AVCodecContext *avctx, const AVFrame *frame) {
    return ready() ? api.avcodec_send_frame(avctx, frame) : AVERROR(ENOSYS);
}

int mhz_avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt) {
    return ready() ? api.avcodec_send_packet(avctx, avpkt) : AVERROR(ENOSYS);
}

int mhz_avformat_alloc_output_context2(AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename) {
    return ready() ? api.avformat_alloc_output_context2(ctx, oformat, format_name, filename) : AVERROR(ENOSYS);
}

void mhz_avformat_close_input(AVFormatContext **s) {
    if (ready()) api.avformat_close_input(s);
}

int mhz_avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options) {
    return ready() ? api.avformat_find_stream_info(ic, options) : AVERROR(ENOSYS);
}

void mhz_avformat_free_context(AVFormatContext *s) {
    if (ready()) api.avformat_free_context(s);
}

AVStream * mhz_avformat_new_stream(AVFormatContext *s, const AVCodec *c) {
    return ready() ? api.avformat_new_stream(s, c) : NULL;
}

int mhz_avformat_open_input(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options) {
    return ready() ? api.avformat_open_input(ps, url, fmt, options) : AVERROR(ENOSYS);
}

int mhz_avformat_write_header(AVFormatContext *s, AVDictionary **options) {
    return ready() ? api.avformat_write_header(s, options) : AVERROR(ENOSYS);
}

AVIOContext * mhz_avio_alloc_context(unsigned char *buffer, int buffer_size, int write_flag, void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), int64_t (*seek)(void *opaque, int64_t offset, int whence)) {
    return ready() ? api.avio_alloc_context(buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek) : NULL;
}

void mhz_avio_context_free(AVIOContext **s) {
    if (ready()) api.avio_context_free(s);
}

void mhz_avio_flush(AVIOContext *s) {
    if (ready()) api.avio_flush(s);
}

int mhz_swr_alloc_set_opts2(struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx) {
    return ready() ? api.swr_alloc_set_opts2(ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, log_ctx) : AVERROR(ENOSYS);
}

int mhz_swr_convert(struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in , int in_count) {
    return ready() ? api.swr_convert(s, out, out_count, in, in_count) : AVERROR(ENOSYS);
}

void mhz_swr_free(struct SwrContext **s) {
    if (ready()) api.swr_free(s);
}

int mhz_swr_get_out_samples(struct SwrContext *s, int in_samples) {
    return ready() ? api.swr_get_out_samples(s, in_samples) : AVERROR(ENOSYS);
}

int mhz_swr_init(struct SwrContext *s) {
    return ready() ? api.swr_init(s) : AVERROR(ENOSYS);
}

int mhz_av_strerror(int errnum, char *errbuf, size_t errbuf_size) {
    return ready() ? api.av_strerror(errnum, errbuf, errbuf_size) : AVERROR(ENOSYS);
}

int mhz_av_channel_layout_check(const AVChannelLayout *channel_layout) {
    return ready() ? api.av_channel_layout_check(channel_layout) : AVERROR(ENOSYS);
}

void mhz_av_channel_layout_default(AVChannelLayout *ch_layout, int nb_channels) {
    if (ready()) api.av_channel_layout_default(ch_layout, nb_channels);
}

void mhz_av_log_set_level(int level) {
    if (ready()) api.av_log_set_level(level);
}

const char * mhz_avcodec_get_name(enum AVCodecID id) {
    return ready() ? api.avcodec_get_name(id) : NULL;
}

AVFormatContext * mhz_avformat_alloc_context(void) {
    return ready() ? api.avformat_alloc_context() : NULL;
}

const AVCodec * mhz_avcodec_find_encoder(enum AVCodecID id) {
    return ready() ? api.avcodec_find_encoder(id) : NULL;
}

int mhz_avcodec_parameters_copy(AVCodecParameters *dst, const AVCodecParameters *src) {
    return ready() ? api.avcodec_parameters_copy(dst, src) : AVERROR(ENOSYS);
}

int64_t mhz_av_rescale_q(int64_t a, AVRational bq, AVRational cq) {
    return ready() ? api.av_rescale_q(a, bq, cq) : 0;
}

int mhz_av_seek_frame(AVFormatContext *s, int stream_index, int64_t timestamp, int flags) {
    return ready() ? api.av_seek_frame(s, stream_index, timestamp, flags) : AVERROR(ENOSYS);
}

void mhz_avcodec_flush_buffers(AVCodecContext *avctx) {
    if (ready()) api.avcodec_flush_buffers(avctx);
}
