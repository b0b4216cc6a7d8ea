// An LD_PRELOAD shim that counts heap allocations while armed, so RasterBench can prove that
// rendering a frame allocates nothing. Built by scripts/bench (gcc -shared), never linked into
// a Swift target: interposing malloc in a shipped binary would be wrong.
//
// Every allocation entry point glibc 2.36 exports is replaced by a counting wrapper that calls
// glibc's own __libc_* allocator, so no dlsym(RTLD_NEXT) bootstrap (which itself allocates) is
// needed. free() is not wrapped: the memory still comes from the same glibc heap.
//
// RasterBench finds the two control functions with dlsym; when the shim is not preloaded it
// reports the check as not run instead of reporting zero.
//
// To find what allocated, set SWELL_ALLOC_BACKTRACES=N: the first N counted allocations after
// arming print a backtrace on stderr (resolve addresses with addr2line -f -C -e BINARY).
#include <errno.h>
#include <execinfo.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static int armed;              // counting on/off, set by swell_alloc_counter_arm
static uint64_t counted;       // allocation calls seen while armed (all threads)
static long backtraces_left;   // from SWELL_ALLOC_BACKTRACES, reset on arming
static __thread int in_backtrace;  // backtrace() may allocate: do not recurse into it

static void print_backtrace(void) {
    if (in_backtrace || __atomic_sub_fetch(&backtraces_left, 1, __ATOMIC_RELAXED) < 0) return;
    in_backtrace = 1;
    void *frames[24];
    int count = backtrace(frames, 24);
    static const char header[] = "alloc_counter: allocation while armed:\n";
    (void)!write(2, header, sizeof header - 1);
    backtrace_symbols_fd(frames, count, 2);  // writes directly, no malloc
    in_backtrace = 0;
}

static inline void note_allocation(void) {
    if (__atomic_load_n(&armed, __ATOMIC_RELAXED)) {
        __atomic_fetch_add(&counted, 1, __ATOMIC_RELAXED);
        if (__atomic_load_n(&backtraces_left, __ATOMIC_RELAXED) > 0) print_backtrace();
    }
}

// Arms (nonzero) or disarms (zero) the counter. Arming resets the count.
void swell_alloc_counter_arm(int on) {
    if (on) {
        const char *limit = getenv("SWELL_ALLOC_BACKTRACES");
        if (limit != NULL) {
            void *warm[1];
            backtrace(warm, 1);  // loads libgcc's unwinder now, not inside a counted allocation
        }
        __atomic_store_n(&backtraces_left, limit != NULL ? atol(limit) : 0, __ATOMIC_SEQ_CST);
        __atomic_store_n(&counted, 0, __ATOMIC_SEQ_CST);
    }
    __atomic_store_n(&armed, on ? 1 : 0, __ATOMIC_SEQ_CST);
}

// Allocation calls counted since the counter was last armed.
uint64_t swell_alloc_counter_count(void) { return __atomic_load_n(&counted, __ATOMIC_SEQ_CST); }

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note_allocation();
    return __libc_realloc(pointer, size);
}

void *reallocarray(void *pointer, size_t count, size_t size) {
    note_allocation();
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(pointer, total);
}

void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    note_allocation();
    // The checks glibc's posix_memalign makes: a power of two that is a multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return ENOMEM;
    *result = memory;
    return 0;
}

void *valloc(size_t size) {
    note_allocation();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    note_allocation();
    return __libc_pvalloc(size);
}
