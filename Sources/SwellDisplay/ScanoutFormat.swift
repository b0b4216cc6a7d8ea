import SwellRaster
import SwellService

/// The pixel layout of scan-out memory, from DRM (always XRGB8888 here) or fbdev's bitfields.
public struct ScanoutFormat: Equatable, Sendable, CustomStringConvertible {
    /// One colour channel: its lowest bit's position and its width in bits.
    public struct Channel: Equatable, Sendable {
        public var offset: Int
        public var length: Int
        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }

    public var bitsPerPixel: Int
    public var red: Channel
    public var green: Channel
    public var blue: Channel

    public init(bitsPerPixel: Int, red: Channel, green: Channel, blue: Channel) {
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Bytes B, G, R, X: the shadow buffer's own layout, copied without conversion.
    public static let xrgb8888 = ScanoutFormat(
        bitsPerPixel: 32, red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8),
        blue: Channel(offset: 0, length: 8))
    /// Bytes R, G, B, X (some ARM panels' fbdev).
    public static let xbgr8888 = ScanoutFormat(
        bitsPerPixel: 32, red: Channel(offset: 0, length: 8), green: Channel(offset: 8, length: 8),
        blue: Channel(offset: 16, length: 8))
    /// 16-bit 5-6-5 (small SPI panels).
    public static let rgb565 = ScanoutFormat(
        bitsPerPixel: 16, red: Channel(offset: 11, length: 5), green: Channel(offset: 5, length: 6),
        blue: Channel(offset: 0, length: 5))

    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    /// Whether the copy can move whole XRGB8888 pixels unchanged.
    public var isXRGB8888: Bool { self == .xrgb8888 }

    /// Checks that the copy can produce this layout; the message names what the device reported.
    public func validate(device: String) throws(KioskError) {
        let channelsFit = [red, green, blue].allSatisfy {
            $0.length >= 1 && $0.length <= 8 && $0.offset >= 0 && $0.offset + $0.length <= bitsPerPixel
        }
        guard bitsPerPixel == 32 || bitsPerPixel == 16, channelsFit else {
            throw KioskError(
                .noDevice,
                "\(device): unsupported pixel format \(self); Swell drives 32 bpp (XRGB/XBGR) and 16 bpp (RGB565) "
                    + "framebuffers (try --output drm, or set a 32 bpp mode with fbset -depth 32)")
        }
    }

    public var description: String {
        "\(bitsPerPixel) bpp R\(red.length)@\(red.offset) G\(green.length)@\(green.offset) B\(blue.length)@\(blue.offset)"
    }

    /// Converts one 0x00RRGGBB pixel (truncating to the channel widths, as every fbdev driver expects).
    @inlinable @inline(__always)
    public func encode(_ pixel: UInt32) -> UInt32 {
        let r = (pixel >> 16) & 0xFF
        let g = (pixel >> 8) & 0xFF
        let b = pixel & 0xFF
        return ((r >> UInt32(8 - red.length)) << UInt32(red.offset))
            | ((g >> UInt32(8 - green.length)) << UInt32(green.offset))
            | ((b >> UInt32(8 - blue.length)) << UInt32(blue.offset))
    }
}

/// Copies the picture into scan-out memory of `panelWidth` x `panelHeight` with `pitch` bytes per
/// row, turning it by `rotation` and converting to `format` on the way: the whole picture, or
/// only `region` of it (picture coordinates, as the frame's `Damage` gives them), which lands on
/// the panel rectangle `rotation.panelRect(ofPicture:)` names.
///
/// Writes every destination byte of the area exactly once, row after row, and never reads the
/// destination (write-combined memory is very slow to read). The source is the cached shadow.
public func copyToScanout(
    _ source: PixelSurface, rotation: Rotation, format: ScanoutFormat,
    destination: UnsafeMutableRawPointer, pitch: Int, panelWidth: Int, panelHeight: Int, region: ClipRect? = nil
) {
    precondition(
        rotation.logicalSize(panelWidth: panelWidth, panelHeight: panelHeight) == (source.width, source.height),
        "picture size does not match the panel for this rotation")
    precondition(pitch >= panelWidth * format.bytesPerPixel, "pitch is smaller than a row")
    let picture = ClipRect(x0: 0, y0: 0, x1: source.width, y1: source.height)
    let panel = rotation.panelRect(
        ofPicture: region.map { $0.intersection(picture) } ?? picture, logicalWidth: source.width,
        logicalHeight: source.height)
    guard !panel.isEmpty else { return }
    let logicalWidth = source.width
    let logicalHeight = source.height
    let sourceRowWords = source.stride / 4
    let sourceBase = source.base.assumingMemoryBound(to: UInt32.self)
    let count = panel.x1 - panel.x0

    for panelY in panel.y0..<panel.y1 {
        let rowBase = destination + panelY * pitch + panel.x0 * format.bytesPerPixel
        // Where panel pixel (0, panelY) comes from, and the step in the source per panel pixel.
        let start: Int
        let step: Int
        switch rotation {
        case .none:
            start = panelY * sourceRowWords
            step = 1
        case .clockwise90:
            // panel (nx, ny) shows picture (ny, H-1-nx)
            start = (logicalHeight - 1) * sourceRowWords + panelY
            step = -sourceRowWords
        case .upsideDown:
            start = (logicalHeight - 1 - panelY) * sourceRowWords + (logicalWidth - 1)
            step = -1
        case .clockwise270:
            // panel (nx, ny) shows picture (W-1-ny, nx)
            start = logicalWidth - 1 - panelY
            step = sourceRowWords
        }
        let from = sourceBase + start + panel.x0 &* step
        if format.isXRGB8888 {
            let row = rowBase.assumingMemoryBound(to: UInt32.self)
            if step == 1 {
                row.update(from: from, count: count)
            } else {
                for x in 0..<count { row[x] = from[x &* step] }
            }
        } else if format.bitsPerPixel == 32 {
            let row = rowBase.assumingMemoryBound(to: UInt32.self)
            for x in 0..<count { row[x] = format.encode(from[x &* step]) }
        } else {
            let row = rowBase.assumingMemoryBound(to: UInt16.self)
            for x in 0..<count { row[x] = UInt16(truncatingIfNeeded: format.encode(from[x &* step])) }
        }
    }
}
