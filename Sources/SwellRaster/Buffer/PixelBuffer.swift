/// An XRGB8888 image that either owns its memory or wraps memory it is given.
///
/// Owned buffers are 64-byte aligned with rows padded to 64 bytes, so SIMD rows start on a
/// cache line. Wrapped buffers (a presenter's shadow buffer, a mapped framebuffer) are used in
/// place, never copied; the caller keeps that memory alive for the buffer's lifetime.
public final class PixelBuffer {
    /// The pixels; an owned buffer's surface keeps the memory alive on its own.
    public let surface: PixelSurface

    public var width: Int { surface.width }
    public var height: Int { surface.height }
    /// Bytes from one row to the next.
    public var stride: Int { surface.stride }

    /// Allocates a zeroed buffer (black, X = 0).
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        let stride = (width * 4 + 63) & ~63
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
        surface = PixelSurface(
            base: memory, width: width, height: height, stride: stride, owner: OwnedPixelMemory(memory))
    }

    /// Wraps existing memory of `stride * height` bytes without copying.
    public init(wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        surface = PixelSurface(base: memory, width: width, height: height, stride: stride)
    }

    /// The pixels as tightly packed rows (`width * 4` bytes each), B, G, R, X per pixel.
    public func packedBytes() -> [UInt8] {
        let rowBytes = width * 4
        return [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, count in
            for y in 0..<height {
                (out.baseAddress! + y * rowBytes).initialize(
                    from: (surface.base + y * stride).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
            count = rowBytes * height
        }
    }
}

/// Frees an owned buffer's memory when the last buffer or surface referring to it is gone.
final class OwnedPixelMemory {
    let base: UnsafeMutableRawPointer

    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    deinit { base.deallocate() }
}
