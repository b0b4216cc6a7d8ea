// libdrm's KMS API (Debian: libdrm-dev), found through pkg-config.
#include <xf86drm.h>
#include <xf86drmMode.h>
