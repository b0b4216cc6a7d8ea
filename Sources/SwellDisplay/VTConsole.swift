import CSysShims
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The virtual terminal under the picture. While Swell runs it is put in KD_GRAPHICS, so the
/// kernel console neither draws text nor blinks its cursor over the picture; `restore()` puts the
/// previous mode back and shows the cursor again (on every exit path, including fatal signals).
public final class VTConsole {
    public let path: String
    private let fd: FileDescriptor
    private let previousMode: Int32
    private var restored = false

    /// Takes our own terminal when it is a VT (a systemd unit with TTYPath=), else /dev/tty0 (the
    /// active VT). Returns nil, with a warning, when neither can be used (over ssh without root).
    public static func takeOver() -> VTConsole? {
        var candidates: [(String, FileDescriptor, Bool)] = []
        if FileDescriptor.standardInput.isTerminal { candidates.append(("standard input", .standardInput, false)) }
        var firstError: Errno?
        for path in ["/dev/tty0", "/dev/console"] {
            do {
                candidates.append((path, try FileDescriptor.open(path, O_RDWR | O_NOCTTY), true))
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        var chosen: VTConsole?
        for (path, fd, owned) in candidates {
            var mode: Int32 = 0
            if chosen == nil, swell_kd_get_mode(fd.rawValue, &mode) == 0 {
                chosen = VTConsole(path: path, fd: fd, previousMode: mode)
                continue
            }
            if owned { fd.close() }
        }
        if chosen == nil {
            let reason = firstError.map { "/dev/tty0: \($0.message)" } ?? "no virtual terminal"
            kioskWarn(
                "cannot switch the console to graphics mode (\(reason)); console text may show over the picture (run as root or in the tty group)"
            )
        }
        chosen?.enterGraphics()
        return chosen
    }

    private init(path: String, fd: FileDescriptor, previousMode: Int32) {
        self.path = path
        self.fd = fd
        self.previousMode = previousMode
    }

    private func enterGraphics() {
        swell_crash_restore_console(fd.rawValue, previousMode)
        if swell_kd_set_mode(fd.rawValue, Int32(SWELL_KD_GRAPHICS)) != 0 {
            kioskWarn("\(path): KDSETMODE graphics failed: \(Errno.current)")
        }
        // Hide the text cursor too (Qt does the same; some consoles ignore KD_GRAPHICS for it).
        try? fd.writeAll(Array("\u{1B}[?25l".utf8))
    }

    public func restore() {
        guard !restored else { return }
        restored = true
        swell_crash_restore_console_forget()
        if swell_kd_set_mode(fd.rawValue, previousMode) != 0 {
            kioskWarn("\(path): could not restore the console mode: \(Errno.current)")
        }
        try? fd.writeAll(Array("\u{1B}[?25h".utf8))
        if fd.rawValue > 2 { fd.close() }
    }

    deinit { restore() }
}
