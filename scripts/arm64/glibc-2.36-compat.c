// Linked into the arm64 swell only (scripts/build --arch arm64), never into the x86-64 builds.
//
// Why: the only arm64 Swift runtime these machines can get is Debian sid's (swiftlang 6.2.3), and
// its static libraries were compiled against glibc 2.38+ headers. There, strtol and friends are
// redirected to the C23 entry points __isoc23_* (which also read "0b" binary prefixes), and
// libdispatch calls strlcpy and strlcat, new in glibc 2.38. Raspberry Pi OS Bookworm and Debian 12
// have glibc 2.36, where a binary that needs those symbols does not start. Linking this object
// resolves them inside the binary instead, so `objdump -T swell` asks for nothing newer than 2.36
// (scripts/test-arm64 checks it). Remove it once the arm64 runtime is built against bookworm.
//
// Each function does what glibc 2.38's does: the C23 conversions accept "0b"/"0B" before binary
// digits when the base is 0 or 2 and otherwise behave as the C99 ones; strlcpy and strlcat are
// BSD's (return the length they tried to make, always terminate when size > 0).
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Where a C23 conversion differs: base 0 or 2, and after optional space and sign, "0b" followed by
// a binary digit. Returns the base to use and sets *digits past the prefix, or returns -1.
static int binary_prefix(const char *text, int base, const char **digits) {
    if (base != 0 && base != 2) return -1;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '+' || *p == '-') p++;
    if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) {
        *digits = p + 2;
        return 2;
    }
    return -1;
}

// The sign is read here and the digits by the C99 function, so overflow and end pointers are its.
#define C23_CONVERSION(name, type, c99, negate)                                   \
    type name(const char *restrict text, char **restrict end, int base) {        \
        const char *digits;                                                        \
        if (binary_prefix(text, base, &digits) < 0) return c99(text, end, base);   \
        const char *p = text;                                                      \
        while (isspace((unsigned char)*p)) p++;                                    \
        int negative = *p == '-';                                                  \
        type value = c99(digits, end, 2);                                          \
        return negative ? negate(value) : value;                                   \
    }

static long negate_long(long v) { return -v; }
static long long negate_long_long(long long v) { return -v; }
static unsigned long negate_unsigned_long(unsigned long v) { return -v; }
static unsigned long long negate_unsigned_long_long(unsigned long long v) { return -v; }

C23_CONVERSION(__isoc23_strtol, long, strtol, negate_long)
C23_CONVERSION(__isoc23_strtoll, long long, strtoll, negate_long_long)
C23_CONVERSION(__isoc23_strtoul, unsigned long, strtoul, negate_unsigned_long)
C23_CONVERSION(__isoc23_strtoull, unsigned long long, strtoull, negate_unsigned_long_long)

// The runtime's uses are %d, %u, %x and %s patterns, where C99 and C23 read the same; %i and %b
// with binary input are the only difference.
int __isoc23_sscanf(const char *restrict text, const char *restrict format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int count = vsscanf(text, format, arguments);
    va_end(arguments);
    return count;
}

size_t strlcpy(char *restrict destination, const char *restrict source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}

size_t strlcat(char *restrict destination, const char *restrict source, size_t size) {
    size_t used = strnlen(destination, size);
    if (used == size) return size + strlen(source);
    return used + strlcpy(destination + used, source, size - used);
}
