import SwellRaster
import SwellService
import SwellSystem

/// A presenter with no display: scan-out is ordinary memory. Tests and `--output memory` use it;
/// it runs the same rotation, format conversion and damage bookkeeping as the real presenters,
/// with any pitch and any number of scan-out buffers (two flip like a DRM presenter's, and then
/// the buffer written is the one shown two frames ago, which must catch up on both frames' damage).
public final class MemoryPresenter: Presenter {
    public let display: DisplayInfo
    public let rotation: Rotation
    public let shadow: PixelBuffer
    public let format: ScanoutFormat
    /// Bytes per scan-out row (may exceed width × bytes per pixel, as padded panels do).
    public let pitch: Int
    /// The scan-out buffers; the one shown is `scanout`.
    private let buffers: [UnsafeMutableRawPointer]
    private var frontIndex: Int
    private var damage: ScanoutDamage
    public private(set) var presentedFrames = 0
    /// Panel pixels written to scan-out memory by the last `present` (0 for empty damage).
    public private(set) var lastCopiedPixels = 0
    public private(set) var lastCopySeconds = 0.0
    public private(set) var restoreCount = 0
    private var pacer: FramePacer?
    /// When the frame after the last one may be drawn (the clock's next refresh when paced).
    private var readyAt = -Double.infinity

    /// - Parameters:
    ///   - pacedHz: when set, `present()` paces by the clock like a VM display.
    ///   - buffers: scan-out buffers shown in turn (2: page flips).
    public init(
        panelWidth: Int, panelHeight: Int, rotation: Rotation = .none, format: ScanoutFormat = .xrgb8888,
        pitch: Int? = nil, pacedHz: Double? = nil, buffers: Int = 1
    ) {
        precondition(buffers >= 1, "at least one scan-out buffer")
        self.rotation = rotation
        self.format = format
        let pitch = pitch ?? panelWidth * format.bytesPerPixel
        self.pitch = pitch
        precondition(pitch >= panelWidth * format.bytesPerPixel, "pitch is smaller than a row")
        self.buffers = (0..<buffers).map { _ in
            let memory = UnsafeMutableRawPointer.allocate(byteCount: pitch * panelHeight, alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: 0xEE, count: pitch * panelHeight)
            return memory
        }
        frontIndex = buffers - 1
        display = DisplayInfo(
            device: "memory", output: "memory", panelWidth: panelWidth, panelHeight: panelHeight,
            refreshHz: pacedHz ?? 60, backend: "memory")
        let logical = rotation.logicalSize(panelWidth: panelWidth, panelHeight: panelHeight)
        shadow = PixelBuffer(width: logical.width, height: logical.height)
        damage = ScanoutDamage(buffers: buffers, width: logical.width, height: logical.height)
        pacer = pacedHz.map { FramePacer(refreshHz: $0, vblankAvailable: false) }
    }

    deinit { for buffer in buffers { buffer.deallocate() } }

    /// The scan-out memory: what a screen would show after the last `present()`.
    public var scanout: UnsafeMutableRawPointer { buffers[frontIndex] }

    public func present(damage frame: Damage) throws(KioskError) {
        try queue(damage: frame, now: monotonicSeconds())
        sleepUntil(monotonic: readyAt)
    }

    public func queue(damage frame: Damage, now: Double) throws(KioskError) {
        lastCopiedPixels = 0
        // Paced like a VM display: the next frame waits for the clock's next refresh.
        readyAt = pacer?.clockDeadline(now: now) ?? now
        guard !frame.isEmpty else {
            // Nothing changed: nothing is copied or shown, and the display keeps its picture.
            lastCopySeconds = 0
            return
        }
        let back = (frontIndex + 1) % buffers.count
        let started = monotonicSeconds()
        damage.add(frame)
        damage.bringUpToDate(buffer: back) { rect in
            copyToScanout(
                shadow.surface, rotation: rotation, format: format, destination: buffers[back], pitch: pitch,
                panelWidth: display.panelWidth, panelHeight: display.panelHeight, region: rect)
            lastCopiedPixels += rect.area
        }
        lastCopySeconds = monotonicSeconds() - started
        frontIndex = back
        presentedFrames += 1
    }

    public func frameWait(now: Double) throws(KioskError) -> FrameWait {
        readyAt <= now ? .ready : .at(readyAt)
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
