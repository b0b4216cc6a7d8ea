// Which x86-64 psABI level this CPU and kernel run (the levels glibc-hwcaps and the compilers'
// -march=x86-64-vN name): the CPUID feature bits each level requires, and, for the AVX levels,
// the operating system's consent through XCR0 (a kernel that does not save the YMM/ZMM registers
// on a context switch leaves AVX unusable even where CPUID lists it). Swift cannot execute cpuid
// or xgetbv, hence C. The bits are spelled out rather than taken from <cpuid.h>'s bit_* names,
// which differ between GCC's and clang's headers.
#include "CSysShims.h"

#if defined(__x86_64__)
#include <cpuid.h>

static unsigned long long swell_xcr0(void) {
    unsigned int low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return ((unsigned long long)high << 32) | low;
}

int swell_x86_cpu_level(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 1;
    const unsigned int leaf1_ecx = ecx;
    if (!__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx)) return 1;
    const unsigned int extended_ecx = ecx;
    unsigned int leaf7_ebx = 0;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) leaf7_ebx = ebx;
#define HAS(word, bit) (((word) >> (bit)) & 1u)
    // x86-64-v2: CMPXCHG16B, LAHF/SAHF, POPCNT, SSE3, SSE4.1, SSE4.2, SSSE3.
    const int v2 = HAS(leaf1_ecx, 13) && HAS(extended_ecx, 0) && HAS(leaf1_ecx, 23) && HAS(leaf1_ecx, 0) &&
                   HAS(leaf1_ecx, 19) && HAS(leaf1_ecx, 20) && HAS(leaf1_ecx, 9);
    if (!v2) return 1;
    // The OS saves SSE and AVX state (XCR0 bits 1 and 2); OSXSAVE says xgetbv may be run.
    const unsigned long long xcr0 = HAS(leaf1_ecx, 27) ? swell_xcr0() : 0;
    // x86-64-v3: AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE (and OS support for AVX).
    const int v3 = (xcr0 & 0x6) == 0x6 && HAS(leaf1_ecx, 28) && HAS(leaf7_ebx, 5) && HAS(leaf7_ebx, 3) &&
                   HAS(leaf7_ebx, 8) && HAS(leaf1_ecx, 29) && HAS(leaf1_ecx, 12) && HAS(extended_ecx, 5) &&
                   HAS(leaf1_ecx, 22);
    if (!v3) return 2;
    // x86-64-v4: AVX512F, AVX512BW, AVX512CD, AVX512DQ, AVX512VL, and the OS saving the opmask
    // and all 32 ZMM registers (XCR0 bits 5, 6 and 7).
    const int v4 = (xcr0 & 0xe0) == 0xe0 && HAS(leaf7_ebx, 16) && HAS(leaf7_ebx, 30) && HAS(leaf7_ebx, 28) &&
                   HAS(leaf7_ebx, 17) && HAS(leaf7_ebx, 31);
#undef HAS
    return v4 ? 4 : 3;
}
#else
int swell_x86_cpu_level(void) { return 0; }
#endif
