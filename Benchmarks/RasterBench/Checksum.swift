import SwellRaster

/// FNV-1a (64-bit) over the visible pixels, row by row, with the unused X byte masked to zero:
/// it identifies the picture, not the row padding or whatever a kernel leaves in X.
func pictureChecksum(_ surface: PixelSurface) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    let prime: UInt64 = 0x0000_0100_0000_01b3
    for y in 0..<surface.height {
        let row = surface.row(y)
        for x in 0..<surface.width {
            let pixel = row[x] & 0x00FF_FFFF
            // Bytes in memory order (B, G, R, X) so the value matches hashing the raw bytes.
            for shift in stride(from: 0, to: 32, by: 8) {
                hash = (hash ^ UInt64((pixel >> UInt32(shift)) & 0xFF)) &* prime
            }
        }
    }
    return hash
}

/// The checksum as 16 hex digits, the form recorded in checksum files.
func hexDigits(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}
