// What `swell --version` reports. The version is not compiled in: scripts/build writes it into
// the linked binary's .swell_version section (objcopy --update-section, always SWELL_VERSION_SIZE
// bytes), so a new commit needs no rebuild and the source tree stays clean; a plain `swift build`
// leaves "unknown". The CPU flavour comes from the target macros the compiler sets for -march /
// -mcpu (scripts/build passes the same CPU to the Swift code), so it always tells the truth about
// which instructions the binary may use.
#include "CSysShims.h"

#define SWELL_VERSION_SIZE 128

// `used`: kept through --gc-sections; not static and read through a pointer, so the compiler
// cannot fold the placeholder into the code that reads it.
__attribute__((used, section(".swell_version"), aligned(1)))
const char swell_version_text[SWELL_VERSION_SIZE] = "unknown";

const char *swell_build_version(void) {
    const volatile char *text = swell_version_text;
    return (const char *)text;
}

const char *swell_cpu_flavour(void) {
#if defined(__x86_64__)
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && defined(__AVX512VL__)
    return "x86-64-v4";
#elif defined(__AVX2__) && defined(__FMA__) && defined(__BMI2__)
    return "x86-64-v3";
#elif defined(__SSE4_2__) && defined(__POPCNT__)
    return "x86-64-v2";
#else
    return "x86-64";
#endif
#elif defined(__aarch64__)
    // The two tunings scripts/build offers besides the portable armv8-a, told apart by what
    // -mcpu turns on: the Pi 5's Cortex-A76 is Armv8.2-A (dot product, LSE atomics); the Pi 4's
    // Cortex-A72 is Armv8.0-A with the CRC32 instructions, which plain armv8-a leaves out.
#if defined(__ARM_FEATURE_DOTPROD) && defined(__ARM_FEATURE_ATOMICS)
    return "armv8.2-a";
#elif defined(__ARM_FEATURE_CRC32)
    return "armv8-a+crc";
#else
    return "aarch64";
#endif
#else
    return "unknown";
#endif
}
