import CSysShims
import SwellDisplay
import SwellService
import SwellSystem

/// Every touch screen, tablet and mouse in /dev/input, read together.
///
/// Devices are picked by capability. /dev/input is watched with inotify, so a device plugged in
/// while running is opened (a rescan also runs at most every few seconds, for systems where inotify
/// is unavailable), and a device that vanishes (read fails with ENODEV) is closed after ending its
/// touches. Per-device ids become per-finger ids unique across devices: the smallest free number.
public final class InputMonitor {
    public let directory: String
    /// The mapping of every device (one output), or of output 0's devices (with `routing`).
    public var mapping: ScreenMapping {
        didSet {
            routing?.mappings[0] = mapping
            for device in devices.values where device.output == 0 { device.decoder.mapping = mapping(for: device) }
        }
    }
    /// Several outputs: which output each device touches, with that output's mapping and the
    /// device's own calibration (nil: one output, `mapping` for all).
    public private(set) var routing: InputRouting?

    /// Told when a device is opened (path, name) and when it is dropped (path, reason).
    public var deviceAdded: ((String, String) -> Void)?
    public var deviceRemoved: ((String, String) -> Void)?
    /// Told, with `routing`, where a device opened after `init` sends its touches (a journal line).
    public var deviceRouted: ((String) -> Void)?
    /// With `routing`: each open device's route line, in path order (the devices opened by
    /// `init` are reported through this, before any callback could be set).
    public var routeSummary: [String] { orderedDevices.compactMap { routeLines[$0.path] } }
    private var routeLines: [String: String] = [:]

    private var devices: [String: InputDevice] = [:]
    /// Device paths that were not touch/pointer devices or could not be opened (with the reason),
    /// so a rescan does not retry or re-warn for them until they reappear.
    private var ignored: Set<String> = []
    private var warned: Set<String> = []
    private var inotify: Inotify?
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

    public init(mapping: ScreenMapping, directory: String = "/dev/input", routing: InputRouting? = nil) {
        self.mapping = routing?.mappings.first ?? mapping
        self.directory = directory
        self.routing = routing
        readBuffer = UnsafeMutableRawPointer.allocate(byteCount: eventSize * Self.readCapacity, alignment: 16)
        if let watch = try? Inotify.open() {
            if (try? watch.watch(directory, for: [.created, .deleted, .attributesChanged, .movedIn])) != nil {
                inotify = watch
            } else {
                watch.close()
            }
        }
        rescan()
    }

    deinit {
        inotify?.close()
        readBuffer.deallocate()
    }

    /// Output `index`'s mapping changed (a new mode or rotation): its devices follow, each
    /// keeping its calibration.
    public func setMapping(_ mapping: ScreenMapping, forOutput index: Int) {
        guard routing != nil else {
            if index == 0 { self.mapping = mapping }
            return
        }
        routing?.mappings[index] = mapping
        if index == 0 { self.mapping = mapping }
        for device in devices.values where device.output == index { device.decoder.mapping = self.mapping(for: device) }
    }

    /// The open devices as the routing sees them (path order), with the output each touches.
    public var routedDevices: [(device: TouchRouting.Device, output: Int)] {
        orderedDevices.map { (TouchRouting.Device(path: $0.path, name: $0.name, kind: $0.decoder.kind), $0.output) }
    }

    /// The mapping of `device`'s output with its calibration.
    private func mapping(for device: InputDevice) -> ScreenMapping {
        guard let routing else { return mapping }
        var mapped = routing.mappings[device.output]
        mapped.calibration = routing.calibration(for: routingDevice(device))
        return mapped
    }

    private func routingDevice(_ device: InputDevice) -> TouchRouting.Device {
        TouchRouting.Device(path: device.path, name: device.name, kind: device.decoder.kind)
    }

    /// Sends a newly opened device's touches to its output (with `routing`).
    private func route(_ device: InputDevice) {
        guard let routing else { return }
        let described = routingDevice(device)
        let route = routing.route(described)
        device.output = route.output
        device.decoder.mapping = mapping(for: device)
        routeLines[device.path] = TouchRouting.describe(described, route, outputs: routing.outputs)
    }

    /// The names and kinds of the open devices, for messages.
    public var deviceSummary: [String] {
        orderedDevices.map { "\($0.path) (\($0.name))" }
    }

    /// What to wait on: every device and the inotify watch.
    public var descriptors: [FileDescriptor] {
        devices.values.map(\.fd) + (inotify.map { [$0.fd] } ?? [])
    }

    /// Adds `descriptors` to a loop's poll set (allocates nothing: the loop waits every frame).
    public func addDescriptors(to set: PollSet) {
        for device in orderedDevices { set.add(device.fd) }
        if let inotify { set.add(inotify.fd) }
    }

    /// How long a waiter may sleep before `poll()` must run again (nil: forever, inotify covers hotplug).
    public var maximumSleep: Double? { inotify == nil ? Self.rescanInterval : nil }

    /// Reads everything available without blocking and hands each completed touch event to
    /// `handle`, devices in path order. Allocates nothing while no finger is touching.
    public func poll(_ handle: (TouchEvent) -> Void) {
        pending.removeAll(keepingCapacity: true)
        if let inotify {
            var changed = false
            while inotify.read(into: readBuffer, count: eventSize * Self.readCapacity) > 0 {
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
            event.output = devices[path]?.output ?? 0
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
                    route(device)
                    deviceAdded?(path, device.name)
                    if let line = routeLines[path] { deviceRouted?(line) }
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
        routeLines[path] = nil
        deviceRemoved?(path, reason)
        fingerIDs[path] = nil
    }
}
