// libswscale and libavutil (Debian: libswscale-dev), for VideoConvertBench only: Swell's YUV 4:2:0
// converters are timed against sws_scale. The root package's CFFmpeg stays its own.
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
