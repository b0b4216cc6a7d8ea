import CSysShims
import SwellDisplay
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// One open evdev device that reports touches or pointer clicks, with its decoder.
final class InputDevice {
    let path: String
    let name: String
    let fd: FileDescriptor
    var decoder: EvdevDecoder
    /// The output its touches go to (`TouchRouting`; 0 with one output).
    var output = 0

    /// Opens `path` and classifies it; returns nil for devices that report no touches or clicks
    /// (keyboards, power buttons, accelerometers). Throws when the node cannot be opened.
    static func open(_ path: String, mapping: ScreenMapping) throws(Errno) -> InputDevice? {
        let fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        guard let kind = classify(fd) else {
            fd.close()
            return nil
        }
        let name = deviceName(fd)
        var decoder = EvdevDecoder(kind: kind, mapping: mapping)
        var x = input_absinfo()
        var y = input_absinfo()
        if swell_evdev_get_abs(fd.rawValue, UInt32(EvdevCode.absX), &x) == 0,
            swell_evdev_get_abs(fd.rawValue, UInt32(EvdevCode.absY), &y) == 0
        {
            decoder.seedPosition(x: x.value, y: y.value)
        }
        return InputDevice(path: path, name: name, fd: fd, decoder: decoder)
    }

    private init(path: String, name: String, fd: FileDescriptor, decoder: EvdevDecoder) {
        self.path = path
        self.name = name
        self.fd = fd
        self.decoder = decoder
    }

    deinit { fd.close() }

    /// The device's name (EVIOCGNAME), as `--touch NAME=OUTPUT` takes it.
    static func deviceName(_ fd: FileDescriptor) -> String {
        var nameBytes = [CChar](repeating: 0, count: 256)
        _ = swell_evdev_get_name(fd.rawValue, &nameBytes, UInt32(nameBytes.count))
        return String(decoding: nameBytes.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Decides the protocol from the capability bits (EVIOCGBIT), never from the node's number.
    static func classify(_ fd: FileDescriptor) -> InputDeviceKind? {
        let types = bits(fd, type: 0, count: 32)
        let keys = bits(fd, type: UInt32(EvdevCode.keyType), count: 768)
        let absolute = bits(fd, type: UInt32(EvdevCode.absType), count: 64)
        let relative = bits(fd, type: UInt32(EvdevCode.relType), count: 16)
        let hasAbs = types.contains(Int(EvdevCode.absType))
        let hasKey = types.contains(Int(EvdevCode.keyType))
        if hasAbs, absolute.contains(Int(EvdevCode.absMTSlot)), absolute.contains(Int(EvdevCode.absMTPositionX)),
            absolute.contains(Int(EvdevCode.absMTPositionY)),
            let x = range(fd, EvdevCode.absMTPositionX), let y = range(fd, EvdevCode.absMTPositionY),
            let slots = range(fd, EvdevCode.absMTSlot)
        {
            return .multitouch(x: x, y: y, slots: Int(slots.maximum) + 1)
        }
        let hasXY = hasAbs && absolute.contains(Int(EvdevCode.absX)) && absolute.contains(Int(EvdevCode.absY))
        if hasXY, hasKey, let x = range(fd, EvdevCode.absX), let y = range(fd, EvdevCode.absY) {
            if keys.contains(Int(EvdevCode.btnTouch)) { return .singleTouch(x: x, y: y) }
            if keys.contains(Int(EvdevCode.btnLeft)) { return .absolutePointer(x: x, y: y) }
        }
        if types.contains(Int(EvdevCode.relType)), relative.contains(Int(EvdevCode.relX)),
            relative.contains(Int(EvdevCode.relY)), keys.contains(Int(EvdevCode.btnLeft))
        {
            return .mouse
        }
        return nil
    }

    private static func bits(_ fd: FileDescriptor, type: UInt32, count: Int) -> Set<Int> {
        var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
        guard swell_evdev_get_bits(fd.rawValue, type, &bytes, UInt32(bytes.count)) == 0 else { return [] }
        var set = Set<Int>()
        for bit in 0..<count where bytes[bit / 8] & (1 << UInt8(bit % 8)) != 0 { set.insert(bit) }
        return set
    }

    private static func range(_ fd: FileDescriptor, _ axis: UInt16) -> AxisRange? {
        var info = input_absinfo()
        guard swell_evdev_get_abs(fd.rawValue, UInt32(axis), &info) == 0,
            info.maximum > info.minimum || axis == EvdevCode.absMTSlot
        else { return nil }
        return AxisRange(minimum: info.minimum, maximum: info.maximum, resolution: info.resolution)
    }
}
