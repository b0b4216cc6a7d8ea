import CSysShims
import SwellRaster
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Presents through the Linux framebuffer device (`/dev/fb0`): for boards without KMS, SPI panels
/// and DRM drivers' fbdev emulation.
///
/// Honours `line_length` (rows may be padded) and the colour bitfields (XRGB, XBGR, RGB565).
/// Double-buffers by panning when the virtual height holds two pages and the driver pans; syncs to
/// vblank with FBIO_WAITFORVSYNC where the driver answers it (bounded by a timeout), else paces by
/// the clock; flushes deferred-I/O framebuffers with msync so a frame shows at once.
public final class FBDevPresenter: Presenter {
    public let display: DisplayInfo
    public let rotation: Rotation
    public let shadow: PixelBuffer
    public let path: String
    public let format: ScanoutFormat
    public let lineLength: Int
    public let doubleBuffered: Bool

    private let fd: FileDescriptor
    private let mapping: MappedMemory
    private var memory: UnsafeMutableRawPointer { mapping.base }
    private let original: fb_var_screeninfo
    private var current: fb_var_screeninfo
    private var backPage = 0
    private var pacer: FramePacer
    private var msyncWorks = true
    private var vsyncWorks = true
    private var restored = false
    /// Powered down by `setScreen(on: false)`.
    private var blanked = false
    /// What each page misses of the shadow (one page, or two when panning).
    private var damage: ScanoutDamage
    public private(set) var lastCopySeconds = 0.0

    /// The framebuffer devices, /dev/fb0 first.
    public static func devicePaths() -> [String] {
        directoryEntries("/dev").filter { $0.hasPrefix("fb") && Int($0.dropFirst(2)) != nil }.map { "/dev/" + $0 }
    }

    /// The driver's id for framebuffer `path` (/dev/fbN) from sysfs, which anyone may read
    /// ("bochs-drmdrmfb", "fb_ili9341"); nil when it cannot be read.
    public static func driverID(path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return firstLine(ofFile: "/sys/class/graphics/\(name)/name")
    }

    public init(devicePath: String?, rotation: Rotation) throws(KioskError) {
        self.rotation = rotation
        let candidates = devicePath.map { [$0.hasPrefix("/") ? $0 : "/dev/" + $0] } ?? Self.devicePaths()
        guard let path = candidates.first else {
            throw KioskError(
                .noDevice,
                "no framebuffer device (/dev/fb*); load the display driver (with DRM drivers, fbdev emulation "
                    + "needs CONFIG_DRM_FBDEV_EMULATION) or use --output drm")
        }
        self.path = path
        do {
            fd = try FileDescriptor.open(path, O_RDWR)
        } catch {
            throw KioskError.opening(path, error, group: "video")
        }
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard swell_fb_get_var(fd.rawValue, &variable) == 0, swell_fb_get_fix(fd.rawValue, &fixed) == 0 else {
            let error = Errno.current
            fd.close()
            throw KioskError(.noDevice, "\(path): not a framebuffer (\(error))")
        }
        original = variable
        current = variable
        let name = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        format = ScanoutFormat(
            bitsPerPixel: Int(variable.bits_per_pixel),
            red: .init(offset: Int(variable.red.offset), length: Int(variable.red.length)),
            green: .init(offset: Int(variable.green.offset), length: Int(variable.green.length)),
            blue: .init(offset: Int(variable.blue.offset), length: Int(variable.blue.length)))
        let width = Int(variable.xres)
        let height = Int(variable.yres)
        lineLength = Int(fixed.line_length)
        do throws(KioskError) {
            guard fixed.type == UInt32(FB_TYPE_PACKED_PIXELS), fixed.visual == UInt32(FB_VISUAL_TRUECOLOR) else {
                throw KioskError(
                    .noDevice,
                    "\(path) (\(name)): not a packed true-colour framebuffer (type \(fixed.type), visual \(fixed.visual))"
                )
            }
            try format.validate(device: path)
            guard width > 0, height > 0, lineLength >= width * format.bytesPerPixel else {
                throw KioskError(
                    .noDevice, "\(path) (\(name)): bad geometry \(width)x\(height), line length \(lineLength)")
            }
        } catch {
            fd.close()
            throw error
        }
        let mappedLength = Int(fixed.smem_len)
        do {
            mapping = try MappedMemory.map(fd, length: mappedLength)
        } catch {
            fd.close()
            throw KioskError(.io, "\(path): cannot map \(mappedLength) bytes of framebuffer memory: \(error)")
        }

        // Two pages only when the virtual screen holds them and the driver pans (SPI panels do not).
        let pageBytes = lineLength * height
        var canPan = false
        if Int(variable.yres_virtual) >= 2 * height, mapping.length >= 2 * pageBytes {
            var probe = variable
            probe.xoffset = 0
            probe.yoffset = 0
            canPan = swell_fb_pan_display(fd.rawValue, &probe) == 0
            if canPan { current = probe }
        }
        doubleBuffered = canPan
        backPage = canPan ? 1 : 0

        let refresh = FBDevPresenter.refreshHz(variable)
        pacer = FramePacer(refreshHz: refresh ?? 60, vblankAvailable: true)
        display = DisplayInfo(
            device: String(path.split(separator: "/").last!), output: name.isEmpty ? "fbdev" : name,
            panelWidth: width, panelHeight: height, refreshHz: refresh ?? 60, backend: "fbdev")
        let logical = rotation.logicalSize(panelWidth: width, panelHeight: height)
        shadow = PixelBuffer(width: logical.width, height: logical.height)
        damage = ScanoutDamage(buffers: canPan ? 2 : 1, width: logical.width, height: logical.height)
    }

    deinit {
        restore()
        mapping.unmap()
        fd.close()
    }

    /// The refresh rate from the pixel clock (picoseconds per pixel) and the blanking intervals.
    static func refreshHz(_ v: fb_var_screeninfo) -> Double? {
        guard v.pixclock > 0 else { return nil }
        let lineTotal = Double(v.xres + v.left_margin + v.right_margin + v.hsync_len)
        let frameTotal = Double(v.yres + v.upper_margin + v.lower_margin + v.vsync_len)
        let hz = 1e12 / (Double(v.pixclock) * lineTotal * frameTotal)
        return hz.isFinite && hz > 1 && hz < 1000 ? hz : nil
    }

    /// FBIOBLANK (powerdown, or unblank). False when the driver has no blanking (ENOTTY/EINVAL).
    public func setScreen(on: Bool) throws(KioskError) -> Bool {
        guard swell_fb_blank(fd.rawValue, on ? 0 : 1) == 0 else {
            let error = Errno.current
            if error == .invalid || error == .notTTY { return false }
            throw KioskError(.io, "\(path): cannot turn the display \(on ? "on" : "off") (FBIOBLANK): \(error)")
        }
        blanked = !on
        return true
    }

    public func present(damage frame: Damage) throws(KioskError) {
        lastCopySeconds = 0
        damage.add(frame)
        // Powered down on request, or nothing changed: nothing to show; the clock paces.
        if blanked || frame.isEmpty {
            pacer.waitByClock()
            return
        }
        let pageBytes = lineLength * display.panelHeight
        let page = doubleBuffered ? backPage : 0
        let pageStart = doubleBuffered ? backPage * pageBytes : Int(current.yoffset) * lineLength
        let bytesPerPixel = format.bytesPerPixel
        let destination = memory + pageStart + Int(current.xoffset) * bytesPerPixel
        let started = monotonicSeconds()
        // The rows written, for msync: a deferred-I/O framebuffer flushes only those pages.
        var rows = ClipRect(x0: 0, y0: 0, x1: 0, y1: 0)
        damage.bringUpToDate(buffer: page) { rect in
            copyToScanout(
                shadow.surface, rotation: rotation, format: format, destination: destination, pitch: lineLength,
                panelWidth: display.panelWidth, panelHeight: display.panelHeight, region: rect)
            rows = rows.union(
                rotation.panelRect(ofPicture: rect, logicalWidth: shadow.width, logicalHeight: shadow.height))
        }
        lastCopySeconds = monotonicSeconds() - started
        flushDeferredIO(
            from: pageStart + rows.y0 * lineLength, count: (rows.y1 - rows.y0) * lineLength)
        if doubleBuffered {
            var next = current
            next.yoffset = UInt32(backPage * display.panelHeight)
            if swell_fb_pan_display(fd.rawValue, &next) == 0 {
                current = next
                backPage ^= 1
            } else {
                // The page written is not shown; what the other one shows is no longer known.
                damage.invalidateAll()
            }
        }
        waitForVBlank()
        pacer.waitIfClockPaced()
    }

    public var pacing: String {
        (doubleBuffered ? "two pages with FBIOPAN_DISPLAY" : "one page (the driver cannot pan)")
            + (pacer.usesClock ? ", paced by the clock (no usable FBIO_WAITFORVSYNC)" : ", paced by FBIO_WAITFORVSYNC")
            + (msyncWorks ? ", msync for deferred I/O" : "")
    }

    /// Deferred-I/O framebuffers (DRM fbdev emulation, SPI panels) copy to the screen ~50 ms later
    /// unless told; msync starts the copy now. Others answer EINVAL once, and are not asked again.
    private func flushDeferredIO(from offset: Int, count: Int) {
        guard msyncWorks else { return }
        do {
            try mapping.synchronize(offset: offset, count: count)
        } catch {
            msyncWorks = false
        }
    }

    private func waitForVBlank() {
        guard vsyncWorks, !pacer.usesClock else { return }
        if swell_fb_wait_for_vsync_timeout(fd.rawValue, Int32(max(100, pacer.interval * 4000))) != 0 {
            vsyncWorks = false
            pacer.vblankUnavailable()
            return
        }
        pacer.vblankReported(at: monotonicSeconds())
    }

    /// Pans back to the page that was shown before (the console's). The console mode itself is
    /// restored by `VTConsole`.
    public func restore() {
        guard !restored else { return }
        restored = true
        // The console must not come back to a display left powered down.
        if blanked { _ = swell_fb_blank(fd.rawValue, 0) }
        if doubleBuffered {
            var back = original
            _ = swell_fb_pan_display(fd.rawValue, &back)
        }
    }
}
