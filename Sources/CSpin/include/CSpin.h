// The processor's spin-wait hint, which Swift cannot emit itself: SwellRaster's worker pool
// spins briefly on an atomic before it sleeps, and the hint keeps that loop from flooding the
// core with loads (and lets an SMT sibling run). Also the streaming fill the band drawing
// writes untouched rows of large frames with (no read of the lines it overwrites).
#ifndef SWELL_CSPIN_H
#define SWELL_CSPIN_H

/// One spin-wait hint: `pause` on x86 (tens of cycles), `yield` on Arm, nothing elsewhere.
static inline void swell_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}


#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Fills `count` pixels with `value` in non-temporal (streaming) stores where the processor has
/// them (SSE2: every x86-64), plain stores elsewhere. A streaming store of a whole cache line
/// does not read the line first (no read-for-ownership) and does not keep it in the cache: for
/// rows of a large frame that nothing reads again before the frame is presented it halves the
/// memory traffic of the fill. The stores are weakly ordered: `swell_stream_fence` before
/// another thread may read them. Same bytes as a plain fill.
static inline void swell_stream_fill32(uint32_t *pixels, uint32_t value, size_t count) {
#if defined(__SSE2__)
    while (count > 0 && ((uintptr_t)pixels & 15) != 0) {
        *pixels++ = value;
        count--;
    }
    __m128i v = _mm_set1_epi32((int)value);
    while (count >= 16) {
        _mm_stream_si128((__m128i *)pixels, v);
        _mm_stream_si128((__m128i *)(pixels + 4), v);
        _mm_stream_si128((__m128i *)(pixels + 8), v);
        _mm_stream_si128((__m128i *)(pixels + 12), v);
        pixels += 16;
        count -= 16;
    }
    while (count >= 4) {
        _mm_stream_si128((__m128i *)pixels, v);
        pixels += 4;
        count -= 4;
    }
#endif
    while (count > 0) {
        *pixels++ = value;
        count--;
    }
}

/// Orders the streaming stores before later stores (`sfence`), so that a thread acquiring what
/// this one releases afterwards sees them; nothing where there are none.
static inline void swell_stream_fence(void) {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

#endif
