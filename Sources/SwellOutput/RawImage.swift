import SwellRaster

/// Writes the surface as raw XRGB8888: `width * 4` bytes a row (padding dropped), bytes B, G, R, X
/// per pixel — readable by `ffmpeg -f rawvideo -pix_fmt bgr0 -s WxH`. Atomic.
public func writeRaw(_ surface: PixelSurface, to path: String) throws(OutputError) {
    try writeFileAtomically(packedRows(surface), to: path)
}

/// The surface's pixels with row padding removed.
public func packedRows(_ surface: PixelSurface) -> [UInt8] {
    let rowBytes = surface.width * 4
    return [UInt8](unsafeUninitializedCapacity: rowBytes * surface.height) { out, count in
        for y in 0..<surface.height {
            UnsafeMutableRawPointer(out.baseAddress! + y * rowBytes).copyMemory(
                from: UnsafeRawPointer(surface.row(y)), byteCount: rowBytes)
        }
        count = rowBytes * surface.height
    }
}

/// FNV-1a (64-bit) over the packed rows, X bytes included: a fingerprint of a frame for
/// manifests and regression checks.
public func checksum(_ surface: PixelSurface) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    let rowBytes = surface.width * 4
    for y in 0..<surface.height {
        let row = UnsafeRawPointer(surface.row(y)).assumingMemoryBound(to: UInt8.self)
        for i in 0..<rowBytes {
            hash = (hash ^ UInt64(row[i])) &* 0x0000_0100_0000_01B3
        }
    }
    return hash
}
