import SwellDisplay
import SwellService

/// Linux input event codes the decoder needs (from linux/input-event-codes.h; kernel ABI).
public enum EvdevCode {
    public static let synType: UInt16 = 0x00
    public static let keyType: UInt16 = 0x01
    public static let relType: UInt16 = 0x02
    public static let absType: UInt16 = 0x03

    public static let synReport: UInt16 = 0
    public static let synDropped: UInt16 = 3

    public static let btnLeft: UInt16 = 0x110
    public static let btnTouch: UInt16 = 0x14a

    public static let relX: UInt16 = 0x00
    public static let relY: UInt16 = 0x01

    public static let absX: UInt16 = 0x00
    public static let absY: UInt16 = 0x01
    public static let absMTSlot: UInt16 = 0x2f
    public static let absMTPositionX: UInt16 = 0x35
    public static let absMTPositionY: UInt16 = 0x36
    public static let absMTTrackingID: UInt16 = 0x39
}

/// How a device reports contacts, decided from its capabilities.
public enum InputDeviceKind: Sendable, Equatable {
    /// Multitouch protocol B: slots with tracking ids (touch screens).
    case multitouch(x: AxisRange, y: AxisRange, slots: Int)
    /// One contact: BTN_TOUCH with ABS_X/ABS_Y (resistive screens, old touch controllers).
    case singleTouch(x: AxisRange, y: AxisRange)
    /// An absolute pointer: BTN_LEFT with ABS_X/ABS_Y (QEMU's tablet, graphics tablets).
    case absolutePointer(x: AxisRange, y: AxisRange)
    /// A relative mouse: REL_X/REL_Y and BTN_LEFT; the decoder keeps the pointer position.
    case mouse
}

/// Turns one device's evdev event stream into touch began/moved/ended events.
///
/// Events are collected until SYN_REPORT and then delivered as one consistent state change, as the
/// evdev protocol intends. Ids are the device's own (the slot for multitouch, 0 otherwise); the
/// input monitor renumbers them across devices. After SYN_DROPPED (the kernel's buffer overflowed)
/// everything up to the next SYN_REPORT is ignored and every contact is ended, so no finger stays
/// stuck down; contacts still on the glass begin again with their next report.
public struct EvdevDecoder: Sendable {
    public let kind: InputDeviceKind
    public var mapping: ScreenMapping

    private struct Contact: Sendable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        /// Whether the contact is down as of the last SYN_REPORT (what the scene was told).
        var reportedDown = false
        var reportedX: Int32 = 0
        var reportedY: Int32 = 0
        var positionKnown = false
    }

    private var contacts: [Contact]
    private var slot = 0
    private var buttonDown = false
    private var dropping = false
    /// The mouse pointer in panel pixels.
    private var pointerX: Double
    private var pointerY: Double
    private var pointerMoved = false
    private var pointerReportedDown = false

    public init(kind: InputDeviceKind, mapping: ScreenMapping) {
        self.kind = kind
        self.mapping = mapping
        switch kind {
        case .multitouch(_, _, let slots): contacts = Array(repeating: Contact(), count: max(1, min(slots, 64)))
        default: contacts = [Contact()]
        }
        pointerX = Double(mapping.panelWidth) / 2
        pointerY = Double(mapping.panelHeight) / 2
    }

    /// Seeds the position of a single-contact device with the axes' current values (EVIOCGABS).
    /// evdev only sends values that changed, so after a restart a tap where the pointer already
    /// was arrives as a button press alone and would otherwise have no position.
    public mutating func seedPosition(x: Int32, y: Int32) {
        switch kind {
        case .singleTouch, .absolutePointer:
            contacts[0].x = x
            contacts[0].y = y
            contacts[0].reportedX = x
            contacts[0].reportedY = y
            contacts[0].positionKnown = true
        case .multitouch, .mouse:
            break
        }
    }

    /// Whether any contact is down (as last reported).
    public var isTouching: Bool { contacts.contains(where: \.reportedDown) || pointerReportedDown }

    /// Feeds one input_event; appends the touch events a SYN_REPORT completes to `events`.
    public mutating func feed(type: UInt16, code: UInt16, value: Int32, into events: inout [TouchEvent]) {
        if type == EvdevCode.synType {
            if code == EvdevCode.synDropped {
                dropping = true
            } else if code == EvdevCode.synReport {
                if dropping {
                    dropping = false
                    endAll(into: &events)
                } else {
                    report(into: &events)
                }
            }
            return
        }
        guard !dropping else { return }
        switch kind {
        case .multitouch:
            feedMultitouch(type: type, code: code, value: value)
        case .singleTouch:
            feedSingle(type: type, code: code, value: value, button: EvdevCode.btnTouch)
        case .absolutePointer:
            feedSingle(type: type, code: code, value: value, button: EvdevCode.btnLeft)
        case .mouse:
            feedMouse(type: type, code: code, value: value)
        }
    }

    /// Ends every contact that is down (the device vanished or events were lost).
    public mutating func endAll(into events: inout [TouchEvent]) {
        for index in contacts.indices where contacts[index].reportedDown {
            let point = picturePoint(contacts[index].reportedX, contacts[index].reportedY)
            events.append(TouchEvent(.ended, id: index, x: point.x, y: point.y))
            contacts[index].reportedDown = false
            contacts[index].trackingID = -1
        }
        if pointerReportedDown {
            let point = mapping.picturePoint(panelX: pointerX, panelY: pointerY)
            events.append(TouchEvent(.ended, id: 0, x: point.x, y: point.y))
            pointerReportedDown = false
        }
        buttonDown = false
    }

    // MARK: per protocol

    private mutating func feedMultitouch(type: UInt16, code: UInt16, value: Int32) {
        guard type == EvdevCode.absType else { return }
        switch code {
        case EvdevCode.absMTSlot:
            slot = Int(value)
        case EvdevCode.absMTTrackingID where contacts.indices.contains(slot):
            // The kernel resends a slot's X/Y only when they change, so a new finger at the
            // previous finger's exact spot arrives with a tracking id alone: keep the old position.
            contacts[slot].trackingID = value
        case EvdevCode.absMTPositionX where contacts.indices.contains(slot):
            contacts[slot].x = value
            contacts[slot].positionKnown = true
        case EvdevCode.absMTPositionY where contacts.indices.contains(slot):
            contacts[slot].y = value
            contacts[slot].positionKnown = true
        default:
            break
        }
    }

    private mutating func feedSingle(type: UInt16, code: UInt16, value: Int32, button: UInt16) {
        if type == EvdevCode.keyType && code == button {
            buttonDown = value != 0
            contacts[0].trackingID = buttonDown ? 0 : -1
        } else if type == EvdevCode.absType && code == EvdevCode.absX {
            contacts[0].x = value
            contacts[0].positionKnown = true
        } else if type == EvdevCode.absType && code == EvdevCode.absY {
            contacts[0].y = value
            contacts[0].positionKnown = true
        }
    }

    private mutating func feedMouse(type: UInt16, code: UInt16, value: Int32) {
        if type == EvdevCode.keyType && code == EvdevCode.btnLeft {
            buttonDown = value != 0
        } else if type == EvdevCode.relType && code == EvdevCode.relX {
            pointerX = min(max(pointerX + Double(value), 0), Double(mapping.panelWidth - 1))
            pointerMoved = true
        } else if type == EvdevCode.relType && code == EvdevCode.relY {
            pointerY = min(max(pointerY + Double(value), 0), Double(mapping.panelHeight - 1))
            pointerMoved = true
        }
    }

    // MARK: reporting

    private mutating func report(into events: inout [TouchEvent]) {
        if case .mouse = kind {
            let point = mapping.picturePoint(panelX: pointerX, panelY: pointerY)
            if buttonDown && !pointerReportedDown {
                events.append(TouchEvent(.began, id: 0, x: point.x, y: point.y))
            } else if buttonDown && pointerMoved {
                events.append(TouchEvent(.moved, id: 0, x: point.x, y: point.y))
            } else if !buttonDown && pointerReportedDown {
                events.append(TouchEvent(.ended, id: 0, x: point.x, y: point.y))
            }
            pointerReportedDown = buttonDown
            pointerMoved = false
            return
        }
        for index in contacts.indices {
            var contact = contacts[index]
            let down = contact.trackingID >= 0
            if down && !contact.reportedDown {
                // A contact needs a position to begin; some devices send it one report later.
                guard contact.positionKnown else { continue }
                let point = picturePoint(contact.x, contact.y)
                events.append(TouchEvent(.began, id: index, x: point.x, y: point.y))
            } else if down && (contact.x != contact.reportedX || contact.y != contact.reportedY) {
                let point = picturePoint(contact.x, contact.y)
                events.append(TouchEvent(.moved, id: index, x: point.x, y: point.y))
            } else if !down && contact.reportedDown {
                let point = picturePoint(contact.reportedX, contact.reportedY)
                events.append(TouchEvent(.ended, id: index, x: point.x, y: point.y))
            }
            contact.reportedDown = down
            contact.reportedX = contact.x
            contact.reportedY = contact.y
            contacts[index] = contact
        }
    }

    private func picturePoint(_ rawX: Int32, _ rawY: Int32) -> (x: Double, y: Double) {
        let (xRange, yRange): (AxisRange, AxisRange)
        switch kind {
        case .multitouch(let x, let y, _), .singleTouch(let x, let y), .absolutePointer(let x, let y):
            (xRange, yRange) = (x, y)
        case .mouse:
            return mapping.picturePoint(panelX: Double(rawX), panelY: Double(rawY))
        }
        return mapping.picturePoint(deviceX: xRange.normalised(rawX), deviceY: yRange.normalised(rawY))
    }
}
