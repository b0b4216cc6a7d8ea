import CFFmpeg

/// A file held in memory, read by libavformat through an AVIOContext of its own: how the fuzzing
/// harness feeds its inputs to the real demuxers and decoders without writing files.
final class MemoryInput {
    let bytes: [UInt8]
    var position = 0
    private var context: UnsafeMutablePointer<AVIOContext>?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The context libavformat reads through (its buffer is libavformat's to grow and free).
    func makeContext() -> UnsafeMutablePointer<AVIOContext>? {
        let size: Int32 = 4096
        guard let buffer = av_malloc(Int(size)) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), size, 0, opaque, readMemory, nil, seekMemory)
        if context == nil { av_free(buffer) }
        return context
    }

    /// Frees the context and its buffer (after avformat_close_input, which leaves a custom one).
    func free() {
        guard context != nil else { return }
        av_freep(&context!.pointee.buffer)
        avio_context_free(&context)
    }
}

private func readMemory(
    _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue()
    let count = min(Int(size), input.bytes.count - input.position)
    guard count > 0, let buffer else { return swell_averror_eof() }
    input.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + input.position, count: count) }
    input.position += count
    return Int32(count)
}

private func seekMemory(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue()
    if whence & AVSEEK_SIZE != 0 { return Int64(input.bytes.count) }
    let base: Int
    switch whence & 3 {
    case 0: base = 0  // SEEK_SET
    case 1: base = input.position  // SEEK_CUR
    case 2: base = input.bytes.count  // SEEK_END
    default: return -1
    }
    let target = Int64(base) + offset
    guard target >= 0, target <= Int64(input.bytes.count) else { return -1 }
    input.position = Int(target)
    return target
}
