/// The largest cache a core of this machine sees, in bytes (Linux sysfs: cpu0's caches, the
/// biggest `size`, usually the last level's); nil where the kernel does not say (some VMs and
/// Arm boards). Read once, on first use.
///
/// Why: whether a frame's pixels stay in the cache between the renderer writing them and the
/// presenter copying them decides how they are best written (`RenderTuning.streamingFillBytes`):
/// a 1080p frame (8 MiB) fits a 32 MiB L3 and not an Intel N100's 6 MiB.
public let largestCacheBytes: Int? = readLargestCacheBytes()

private func readLargestCacheBytes() -> Int? {
    var largest: Int?
    for index in 0..<8 {
        guard let bytes = try? readWholeFile("/sys/devices/system/cpu/cpu0/cache/index\(index)/size", limit: 64),
            let size = parseCacheSize(bytes)
        else { continue }
        largest = max(largest ?? 0, size)
    }
    return largest
}

/// "32768K\n", "8M", "512": bytes (nil: not such a size).
func parseCacheSize(_ text: [UInt8]) -> Int? {
    var value = 0
    var digits = 0
    var multiplier = 1
    for byte in text {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard multiplier == 1, value < 1 << 40 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        case UInt8(ascii: "K"): multiplier = 1 << 10
        case UInt8(ascii: "M"): multiplier = 1 << 20
        case UInt8(ascii: "G"): multiplier = 1 << 30
        case UInt8(ascii: "\n"), UInt8(ascii: " "): continue
        default: return nil
        }
    }
    return digits > 0 ? value * multiplier : nil
}
