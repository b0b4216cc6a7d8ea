import SwellService
import SwellSystem

/// The kernel's uevents, read for display hotplug: a DRM driver announces a connector plugged in,
/// unplugged or given a new EDID with a "change" uevent on its card (carrying HOTPLUG=1). Every
/// DRM change counts, not only those: the others (leases, connector properties, a synthetic
/// `echo change … >/sys/class/drm/card0/uevent` as the virtual kiosk's test sends, whose
/// variables the kernel renames SYNTH_ARG_*) cost one re-read that finds nothing to do. Reading
/// the kernel's own netlink group needs no privilege and no udev (kiosks often run without it,
/// as the virtual kiosk does).
public final class UeventMonitor {
    public let fd: FileDescriptor
    private let buffer: UnsafeMutableRawPointer
    /// Uevents are at most a few KiB (the kernel's UEVENT_BUFFER_SIZE is 2 KiB of variables).
    private static let capacity = 8192

    /// nil if the socket cannot be opened (no netlink in this kernel or container): hotplug then
    /// goes unnoticed, as it did before.
    public init?() {
        guard let fd = try? FileDescriptor.openUeventSocket() else { return nil }
        self.fd = fd
        buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.capacity, alignment: 8)
    }

    deinit {
        fd.close()
        buffer.deallocate()
    }

    /// Reads every queued uevent without blocking (allocates nothing); true if one of them was a
    /// DRM change.
    public func drainDisplayChanges() -> Bool {
        var changed = false
        while true {
            let count: Int
            do {
                count = try fd.receive(into: buffer, count: Self.capacity)
            } catch {
                // ENOBUFS: the socket overflowed and uevents were lost; any of them may have been one.
                if error == .noBufferSpace {
                    changed = true
                    continue
                }
                return changed  // EAGAIN: drained
            }
            if Self.isDisplayChange(UnsafeRawBufferPointer(start: buffer, count: count)) { changed = true }
        }
    }

    /// Whether a uevent message ("ACTION@DEVPATH", then KEY=VALUE strings, NUL-separated) is a
    /// change on a DRM device: SUBSYSTEM=drm and ACTION=change.
    public static func isDisplayChange(_ message: UnsafeRawBufferPointer) -> Bool {
        var drm = false
        var change = false
        var start = 0
        while start < message.count {
            var end = start
            while end < message.count && message[end] != 0 { end += 1 }
            let field = UnsafeRawBufferPointer(rebasing: message[start..<end])
            if field.elementsEqual("SUBSYSTEM=drm".utf8) { drm = true }
            if field.elementsEqual("ACTION=change".utf8) { change = true }
            start = end + 1
        }
        return drm && change
    }
}
