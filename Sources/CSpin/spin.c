// Everything CSpin offers is inline in include/CSpin.h; SwiftPM wants a source file per C target.
#include "CSpin.h"
