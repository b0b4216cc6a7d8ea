import SwellRaster

/// A presenter with no display: scan-out is an ordinary buffer. Tests and `--output memory` use
/// it; it runs the same rotation and format conversion as the real presenters, with any pitch.
public final class MemoryPresenter: Presenter {
    public let display: DisplayInfo
    public let rotation: Rotation
    public let shadow: PixelBuffer
    public let format: ScanoutFormat
    /// Bytes per scan-out row (may exceed width × bytes per pixel, as padded panels do).
    public let pitch: Int
    /// The scan-out memory: what a screen would show after the last `present()`.
    public let scanout: UnsafeMutableRawPointer
    public private(set) var presentedFrames = 0
    public private(set) var restoreCount = 0
    private var pacer: FramePacer?

    /// - Parameter pacedHz: when set, `present()` paces by the clock like a VM display.
    public init(
        panelWidth: Int, panelHeight: Int, rotation: Rotation = .none, format: ScanoutFormat = .xrgb8888,
        pitch: Int? = nil, pacedHz: Double? = nil
    ) {
        self.rotation = rotation
        self.format = format
        self.pitch = pitch ?? panelWidth * format.bytesPerPixel
        precondition(self.pitch >= panelWidth * format.bytesPerPixel, "pitch is smaller than a row")
        scanout = UnsafeMutableRawPointer.allocate(byteCount: self.pitch * panelHeight, alignment: 64)
        scanout.initializeMemory(as: UInt8.self, repeating: 0xEE, count: self.pitch * panelHeight)
        display = DisplayInfo(
            device: "memory", output: "memory", panelWidth: panelWidth, panelHeight: panelHeight,
            refreshHz: pacedHz ?? 60, backend: "memory")
        let logical = rotation.logicalSize(panelWidth: panelWidth, panelHeight: panelHeight)
        shadow = PixelBuffer(width: logical.width, height: logical.height)
        pacer = pacedHz.map { FramePacer(refreshHz: $0, vblankAvailable: false) }
    }

    deinit { scanout.deallocate() }

    public func present() throws(KioskError) {
        copyToScanout(
            shadow.surface, rotation: rotation, format: format, destination: scanout, pitch: pitch,
            panelWidth: display.panelWidth, panelHeight: display.panelHeight)
        presentedFrames += 1
        pacer?.waitIfClockPaced()
    }

    public func restore() { restoreCount += 1 }

    public var pacing: String { pacer == nil ? "memory, unpaced" : "memory, paced by the clock" }

    /// The scan-out pixel at panel position (x, y), as stored (32 or 16 bits).
    public func scanoutPixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < display.panelWidth && y >= 0 && y < display.panelHeight, "outside the panel")
        let address = scanout + y * pitch + x * format.bytesPerPixel
        return format.bitsPerPixel == 32
            ? address.load(as: UInt32.self) : UInt32(address.load(as: UInt16.self))
    }
}
