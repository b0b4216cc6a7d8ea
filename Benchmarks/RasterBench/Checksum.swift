import SwellRaster

/// FNV-1a (64-bit) over the visible pixels' bytes (B, G, R, X; row padding skipped): the same
/// fingerprint as SwellOutput's `checksum` and `swell bench`, so one checksums file serves both.
func pictureChecksum(_ surface: PixelSurface) -> UInt64 {
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

/// The checksum as hex digits, the form checksum files hold (no zero padding, as `swell bench` writes).
func hexDigits(_ value: UInt64) -> String {
    String(value, radix: 16)
}
