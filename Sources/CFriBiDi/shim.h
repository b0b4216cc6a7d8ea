#include <fribidi.h>

/* FRIBIDI_PAR_ON is a macro expression Swift cannot import: the paragraph direction resolved
   from its first strong character. */
static inline FriBidiParType swell_fribidi_auto_direction(void) { return FRIBIDI_PAR_ON; }
