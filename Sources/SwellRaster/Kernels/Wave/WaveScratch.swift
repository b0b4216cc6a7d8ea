/// Scratch memory for the wave kernels, on the caller's stack.
///
/// `withUnsafeTemporaryAllocation` only uses the stack for small buffers: these (up to 13 KiB of
/// chord lanes and 8 KiB of column samples) went to the heap on Linux, two allocations per wave
/// op per frame (caught by Benchmarks/AllocCounter). Fixed-size `InlineArray`s live in the
/// kernel's own frame instead: no allocation, ~21 KiB of stack, zeroed once per op (~1 µs).
@usableFromInline let waveScratchLanes = 6 * WaveSampler.maximumSubColumns + 6
@usableFromInline let waveScratchSamples = 2 * waveChunkSamples

@inlinable @inline(__always)
func withWaveScratch<R>(
    _ body: (_ lanes: UnsafeMutablePointer<LaneFloats>, _ samples: UnsafeMutablePointer<Float>) -> R
) -> R {
    // The counts are literals because InlineArray's size is a type parameter; the checks tie
    // them to the kernels' needs.
    var lanes = InlineArray<198, LaneFloats>(repeating: .zero)
    var samples = InlineArray<2144, Float>(repeating: 0)
    precondition(lanes.count >= waveScratchLanes && samples.count >= waveScratchSamples, "wave scratch too small")
    return withUnsafeMutablePointer(to: &lanes) { lanePointer in
        withUnsafeMutablePointer(to: &samples) { samplePointer in
            body(
                UnsafeMutableRawPointer(lanePointer).assumingMemoryBound(to: LaneFloats.self),
                UnsafeMutableRawPointer(samplePointer).assumingMemoryBound(to: Float.self))
        }
    }
}
