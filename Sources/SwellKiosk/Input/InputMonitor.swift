import CSysShims
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Every touch screen, tablet and mouse in /dev/input, read together.
///
/// Devices are picked by capability. /dev/input is watched with inotify, so a device plugged in
/// while running is opened (a rescan also runs at most every few seconds, for systems where inotify
/// is unavailable), and a device that vanishes (read fails with ENODEV) is closed after ending its
/// touches. Per-device ids become per-finger ids unique across devices: the smallest free number.
public final class InputMonitor {
    public let directory: String
    public var mapping: ScreenMapping {
        didSet { for device in devices.values { device.decoder.mapping = mapping } }
    }

    /// Told when a device is opened (path, name) and when it is dropped (path, reason).
    public var deviceAdded: ((String, String) -> Void)?
    public var deviceRemoved: ((String, String) -> Void)?

    private var devices: [String: InputDevice] = [:]
    /// Device paths that were not touch/pointer devices or could not be opened (with the reason),
    /// so a rescan does not retry or re-warn for them until they reappear.
    private var ignored: Set<String> = []
    private var warned: Set<String> = []
    private var inotify: FileDescriptor?
    private var lastScan = -Double.infinity
    /// (device path, device-local id) → per-finger id.
    private var fingerIDs: [String: [Int: Int]] = [:]
    private var pending: [TouchEvent] = []
    /// One device's events from the current read (reused: no allocation per frame).
    private var decoded: [TouchEvent] = []
    /// The open devices in path order (kept in step with `devices`).
    private var orderedDevices: [InputDevice] = []
    private let eventSize = Int(swell_input_event_size())
    private let readBuffer: UnsafeMutableRawPointer
    private static let readCapacity = 64
    /// Rescans happen at most this often when inotify is missing.
    static let rescanInterval = 2.0

    public init(mapping: ScreenMapping, directory: String = "/dev/input") {
        self.mapping = mapping
        self.directory = directory
        readBuffer = UnsafeMutableRawPointer.allocate(byteCount: eventSize * Self.readCapacity, alignment: 16)
        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if watch >= 0 {
            if inotify_add_watch(watch, directory, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO)) >= 0 {
                inotify = FileDescriptor(rawValue: watch)
            } else {
                close(watch)
            }
        }
        rescan()
    }

    deinit {
        inotify?.close()
        readBuffer.deallocate()
    }

    /// The names and kinds of the open devices, for messages.
    public var deviceSummary: [String] {
        orderedDevices.map { "\($0.path) (\($0.name))" }
    }

    /// What to wait on: every device and the inotify watch.
    public var descriptors: [FileDescriptor] {
        devices.values.map(\.fd) + (inotify.map { [$0] } ?? [])
    }

    /// Adds `descriptors` to a loop's poll set (allocates nothing: the loop waits every frame).
    public func addDescriptors(to set: PollSet) {
        for device in orderedDevices { set.add(device.fd) }
        if let inotify { set.add(inotify) }
    }

    /// How long a waiter may sleep before `poll()` must run again (nil: forever, inotify covers hotplug).
    public var maximumSleep: Double? { inotify == nil ? Self.rescanInterval : nil }

    /// Reads everything available without blocking and hands each completed touch event to
    /// `handle`, devices in path order. Allocates nothing while no finger is touching.
    public func poll(_ handle: (TouchEvent) -> Void) {
        pending.removeAll(keepingCapacity: true)
        if let inotify {
            var changed = false
            while (try? inotify.read(into: readBuffer, count: eventSize * Self.readCapacity)) ?? 0 > 0 {
                changed = true
            }
            if changed { rescan(retryingIgnored: true) }
        } else if monotonicSeconds() - lastScan >= Self.rescanInterval {
            rescan()
        }
        var index = 0
        while index < orderedDevices.count {
            // A device that vanished is removed from the list by `drain`.
            if drain(orderedDevices[index]) { index += 1 }
        }
        for event in pending { handle(event) }
    }

    /// The events `poll` would deliver, as an array (for tools and tests).
    public func poll() -> [TouchEvent] {
        var events: [TouchEvent] = []
        poll { events.append($0) }
        return events
    }

    /// Reads one device dry; returns false when it vanished and was dropped.
    private func drain(_ device: InputDevice) -> Bool {
        decoded.removeAll(keepingCapacity: true)
        while true {
            let count: Int
            do {
                count = try device.fd.read(into: readBuffer, count: eventSize * Self.readCapacity)
            } catch {
                if error == .wouldBlock { break }
                // ENODEV: unplugged. End its touches so no finger stays down, then drop it.
                device.decoder.endAll(into: &decoded)
                deliver(decoded, from: device.path)
                drop(device.path, reason: error.message)
                return false
            }
            if count <= 0 { break }
            for index in 0..<(count / eventSize) {
                let event = (readBuffer + index * eventSize).load(as: input_event.self)
                device.decoder.feed(type: event.type, code: event.code, value: event.value, into: &decoded)
            }
        }
        if !decoded.isEmpty { deliver(decoded, from: device.path) }
        return true
    }

    /// Renumbers device-local ids to per-finger ids (the smallest number not in use).
    private func deliver(_ events: [TouchEvent], from path: String) {
        for var event in events {
            var map = fingerIDs[path] ?? [:]
            let local = event.id
            if let id = map[local] {
                event.id = id
            } else {
                let used = Set(fingerIDs.values.flatMap(\.values))
                var id = 0
                while used.contains(id) { id += 1 }
                map[local] = id
                event.id = id
            }
            if event.phase == .ended { map[local] = nil }
            fingerIDs[path] = map
            pending.append(event)
        }
    }

    private func rescan(retryingIgnored: Bool = false) {
        if retryingIgnored { ignored.removeAll() }
        lastScan = monotonicSeconds()
        let present = Set(directoryEntries(directory).filter { $0.hasPrefix("event") }.map { directory + "/" + $0 })
        for path in devices.keys where !present.contains(path) {
            if let device = devices[path] {
                decoded.removeAll(keepingCapacity: true)
                device.decoder.endAll(into: &decoded)
                deliver(decoded, from: path)
            }
            drop(path, reason: "removed")
        }
        ignored.formIntersection(present)
        for path in present.sorted(by: naturalOrder) where devices[path] == nil && !ignored.contains(path) {
            do {
                if let device = try InputDevice.open(path, mapping: mapping) {
                    devices[path] = device
                    orderedDevices = devices.values.sorted { naturalOrder($0.path, $1.path) }
                    deviceAdded?(path, device.name)
                } else {
                    ignored.insert(path)
                }
            } catch {
                // Without udev a node may show up before its permissions are set; IN_ATTRIB retries it.
                if error == .accessDenied || error == .notPermitted, !warned.contains(path) {
                    warned.insert(path)
                    kioskWarn("\(path): \(error.message); add the user to the 'input' group or run as root")
                }
                ignored.insert(path)
            }
        }
    }

    private func drop(_ path: String, reason: String) {
        guard devices.removeValue(forKey: path) != nil else { return }
        orderedDevices.removeAll { $0.path == path }
        deviceRemoved?(path, reason)
        fingerIDs[path] = nil
    }
}
