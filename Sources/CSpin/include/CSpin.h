// The processor's spin-wait hint, which Swift cannot emit itself: SwellRaster's worker pool
// spins briefly on an atomic before it sleeps, and the hint keeps that loop from flooding the
// core with loads (and lets an SMT sibling run).
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

#endif
