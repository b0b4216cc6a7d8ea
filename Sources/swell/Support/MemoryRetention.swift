import CSysShims

/// Makes glibc give frame-sized blocks back to the system when they are freed.
///
/// By default glibc raises its mmap threshold to the size of the largest block freed so far, so
/// after the first 8 MB frame buffer is released, the next ones come from the heap arenas and
/// stay there when freed, one arena per thread that allocated them. A slideshow that scales each
/// picture on a background queue then settled at ~320 MB resident for three 1080p frames (the
/// plateau of `swell bench` on a 40-picture folder); with the threshold fixed it stays at ~76 MB.
/// Setting the threshold explicitly turns the adjustment off; 256 KiB keeps small allocations
/// (JSON, ops, paths) in the heap where they are cheap.
func keepLargeBlocksOutOfTheHeap() {
    _ = swell_fix_mmap_threshold(256 * 1024)
}
