// libavcodec / libavutil / libswscale bridge for OnAirMedia (the only Swift target that imports it).
//
// Macros that expand to expressions Swift cannot import are wrapped under their own
// names (docs/platform-notes.md, "SwiftPM and C"): AVERROR(e), AVERROR_EOF, AV_NOPTS_VALUE, av_err2str.
#ifndef ONAIR_CFFMPEG_SHIM_H
#define ONAIR_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>

static inline int onair_AVERROR(int errnum) { return AVERROR(errnum); }
static inline int onair_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int onair_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
static inline int64_t onair_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }

/// `av_err2str` is a macro over a compound literal; this writes into a caller's buffer instead.
static inline const char *onair_av_err2str(int errnum, char *buffer, size_t size) {
    av_strerror(errnum, buffer, size);
    return buffer;
}

/// Mono and stereo layouts are compound-literal macros (`AV_CHANNEL_LAYOUT_STEREO`).
static inline void onair_channel_layout_default(AVChannelLayout *layout, int channels) {
    av_channel_layout_default(layout, channels);
}

/// The last line against a hostile SPS (issue 29): libavcodec checks `max_pixels` against the cropped
/// size, but allocates frames at the coded size. This `get_buffer2` refuses a video frame whose buffer
/// (coded) size is over the context's `max_pixels`, then hands the rest to libavcodec's default.
static inline int onair_bounded_get_buffer2(AVCodecContext *context, AVFrame *frame, int flags) {
    if (context->codec_type == AVMEDIA_TYPE_VIDEO && context->max_pixels > 0
        && (int64_t)frame->width * (int64_t)frame->height > context->max_pixels) {
        av_log(context, AV_LOG_ERROR, "refused a %dx%d frame buffer: over the %lld-pixel bound\n",
               frame->width, frame->height, (long long)context->max_pixels);
        return AVERROR(EINVAL);
    }
    return avcodec_default_get_buffer2(context, frame, flags);
}

/// Installs ``onair_bounded_get_buffer2`` on a decoder context, before `avcodec_open2`.
static inline void onair_use_bounded_get_buffer2(AVCodecContext *context) {
    context->get_buffer2 = onair_bounded_get_buffer2;
}

#endif
