import CSysShims
import SwellDisplay
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The text of `swell displays`: cards, connectors, CRTCs, modes, framebuffers and input devices.
public func describeDisplays() -> (text: String, foundAny: Bool) {
    var text = ""
    var found = false
    let cards = DRMCard.devicePaths()
    if cards.isEmpty { text += "no DRM cards in /dev/dri\n" }
    for path in cards {
        let card: DRMCard
        do {
            card = try DRMCard(path: path)
        } catch {
            text += "\(path): \(error.message)\n"
            continue
        }
        found = true
        text += "\(card.name) (\(card.driver))\n"
        for connector in card.connectors {
            var line = "  \(connector.name) \(connector.status)"
            if let crtc = card.crtc(for: connector), connector.currentEncoderID != 0, let state = card.crtcState(crtc) {
                line += " crtc=\(crtc) fb=\(state.fb) mode=\(state.mode)"
            }
            if connector.widthMillimetres > 0 {
                line += " \(connector.widthMillimetres)x\(connector.heightMillimetres)mm"
            }
            text += line + "\n"
            var labels: [String] = []
            let ordered = connector.modes.filter(\.isPreferred) + connector.modes.filter { !$0.isPreferred }
            for mode in ordered {
                let label = mode.label + (mode.isPreferred ? "*" : "")
                if !labels.contains(label) { labels.append(label) }
            }
            if !labels.isEmpty { text += "    modes: " + labels.joined(separator: " ") + "\n" }
        }
    }
    for name in directoryEntries("/dev") where name.hasPrefix("fb") && Int(name.dropFirst(2)) != nil {
        let path = "/dev/" + name
        guard let fd = try? FileDescriptor.open(path, O_RDONLY) else {
            text += "\(path): cannot open (\(Errno.current.message))\n"
            continue
        }
        defer { fd.close() }
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard swell_fb_get_var(fd.rawValue, &variable) == 0, swell_fb_get_fix(fd.rawValue, &fixed) == 0 else {
            continue
        }
        found = true
        let id = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        text +=
            "\(name) (\(id)) \(variable.xres)x\(variable.yres) virtual \(variable.xres_virtual)x\(variable.yres_virtual)"
        text += " offset=\(variable.xoffset),\(variable.yoffset)"
        text += " \(variable.bits_per_pixel) bpp line_length=\(fixed.line_length)"
        text += " R\(variable.red.length)@\(variable.red.offset) G\(variable.green.length)@\(variable.green.offset)"
        text += " B\(variable.blue.length)@\(variable.blue.offset)\n"
    }
    for name in directoryEntries("/dev/input") where name.hasPrefix("event") {
        let path = "/dev/input/" + name
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { continue }
        defer { fd.close() }
        guard let kind = InputDevice.classify(fd) else { continue }
        let kindText: String
        switch kind {
        case .multitouch(let x, let y, let slots):
            kindText = "multitouch, \(slots) slots, x \(x.minimum)...\(x.maximum), y \(y.minimum)...\(y.maximum)"
        case .singleTouch(let x, let y):
            kindText = "single touch, x \(x.minimum)...\(x.maximum), y \(y.minimum)...\(y.maximum)"
        case .absolutePointer(let x, let y):
            kindText = "absolute pointer, x \(x.minimum)...\(x.maximum), y \(y.minimum)...\(y.maximum)"
        case .mouse:
            kindText = "relative mouse"
        }
        // The name is what `--touch NAME=OUTPUT` takes; the size is what routing matches to a panel.
        var size = ""
        if let millimetres = TouchRouting.DeviceSize(kind)?.millimetres {
            size = ", \(millimetres.width)x\(millimetres.height) mm"
        }
        text += "input \(path) (\(InputDevice.deviceName(fd))): \(kindText)\(size)\n"
    }
    return (text, found)
}
