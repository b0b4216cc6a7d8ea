import Glibc

/// The allocation counter of the LD_PRELOAD shim in Benchmarks/AllocCounter, found at run time.
///
/// The shim replaces malloc and friends process-wide; this type only switches its counting on
/// and off. Without the shim preloaded, `AllocationCounter()` is nil and the check is reported
/// as not run (never as zero allocations).
struct AllocationCounter {
    private let arm: @convention(c) (Int32) -> Void
    private let read: @convention(c) () -> UInt64

    init?() {
        // A handle for the program's global scope, which includes LD_PRELOAD libraries.
        guard let program = dlopen(nil, RTLD_NOW),
            let armSymbol = dlsym(program, "swell_alloc_counter_arm"),
            let countSymbol = dlsym(program, "swell_alloc_counter_count")
        else { return nil }
        arm = unsafeBitCast(armSymbol, to: (@convention(c) (Int32) -> Void).self)
        read = unsafeBitCast(countSymbol, to: (@convention(c) () -> UInt64).self)
    }

    /// Runs `body` with counting armed and returns the allocation calls it made (all threads).
    func countAllocations(_ body: () -> Void) -> UInt64 {
        arm(1)
        body()
        arm(0)
        return read()
    }

    /// Proves the counter sees a Swift heap allocation: allocates one array inside an armed
    /// window and returns the count (≥ 1 when the counter works).
    func canaryCount() -> UInt64 {
        let length = Int(getpid() & 1) + 64  // not a compile-time constant: the array cannot be folded
        return countAllocations {
            // Stored to a global so it escapes: a non-escaping array could be promoted to the stack.
            allocationCanarySink = [UInt8](repeating: 1, count: length)
        }
    }
}

/// Where the canary allocation escapes to.
nonisolated(unsafe) var allocationCanarySink: [UInt8] = []
