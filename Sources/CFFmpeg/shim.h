// FFmpeg's libraries (Debian: libavformat-dev, libavcodec-dev, libswscale-dev; FFmpeg 5.1 on
// Debian 12), found through pkg-config. Video elements are demuxed, decoded and converted with
// them (SwellVideo); nothing here parses a container or a codec of its own.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/cpu.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// FFmpeg's error codes and "no time stamp" are macros Swift cannot import.
static inline int swell_averror_again(void) { return AVERROR(EAGAIN); }
static inline int swell_averror_eof(void) { return AVERROR_EOF; }
static inline int swell_averror_invalid_data(void) { return AVERROR_INVALIDDATA; }
static inline int swell_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int swell_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t swell_av_nopts_value(void) { return AV_NOPTS_VALUE; }
