import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

/// Synthetic input_event sequences through the decoder's state machine.
private struct Feed {
    var decoder: EvdevDecoder
    var events: [TouchEvent] = []

    init(_ kind: InputDeviceKind, panel: (Int, Int) = (1000, 500), rotation: Rotation = .none) {
        decoder = EvdevDecoder(
            kind: kind, mapping: ScreenMapping(panelWidth: panel.0, panelHeight: panel.1, rotation: rotation))
    }

    mutating func abs(_ code: UInt16, _ value: Int32) {
        decoder.feed(type: EvdevCode.absType, code: code, value: value, into: &events)
    }
    mutating func key(_ code: UInt16, _ value: Int32) {
        decoder.feed(type: EvdevCode.keyType, code: code, value: value, into: &events)
    }
    mutating func rel(_ code: UInt16, _ value: Int32) {
        decoder.feed(type: EvdevCode.relType, code: code, value: value, into: &events)
    }
    /// SYN_REPORT; returns the events it completed.
    mutating func sync() -> [TouchEvent] {
        events.removeAll()
        decoder.feed(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0, into: &events)
        return events
    }
    mutating func dropped() {
        decoder.feed(type: EvdevCode.synType, code: EvdevCode.synDropped, value: 0, into: &events)
    }
}

/// Axes 0...999 x 0...499 on a 1000x500 panel: raw values are pixels.
private let axisX = AxisRange(minimum: 0, maximum: 999)
private let axisY = AxisRange(minimum: 0, maximum: 499)

@Test func multitouchTwoFingersBeginMoveAndEndIndependently() {
    var feed = Feed(.multitouch(x: axisX, y: axisY, slots: 10))
    feed.abs(EvdevCode.absMTSlot, 0)
    feed.abs(EvdevCode.absMTTrackingID, 17)
    feed.abs(EvdevCode.absMTPositionX, 100)
    feed.abs(EvdevCode.absMTPositionY, 200)
    #expect(feed.sync() == [TouchEvent(.began, id: 0, x: 100, y: 200)])

    feed.abs(EvdevCode.absMTSlot, 1)
    feed.abs(EvdevCode.absMTTrackingID, 18)
    feed.abs(EvdevCode.absMTPositionX, 700)
    feed.abs(EvdevCode.absMTPositionY, 300)
    feed.abs(EvdevCode.absMTSlot, 0)
    feed.abs(EvdevCode.absMTPositionX, 110)
    #expect(feed.sync() == [TouchEvent(.moved, id: 0, x: 110, y: 200), TouchEvent(.began, id: 1, x: 700, y: 300)])

    feed.abs(EvdevCode.absMTTrackingID, -1)
    #expect(feed.sync() == [TouchEvent(.ended, id: 0, x: 110, y: 200)])
    #expect(feed.decoder.isTouching)

    feed.abs(EvdevCode.absMTSlot, 1)
    feed.abs(EvdevCode.absMTTrackingID, -1)
    #expect(feed.sync() == [TouchEvent(.ended, id: 1, x: 700, y: 300)])
    #expect(!feed.decoder.isTouching)
}

@Test func multitouchNewFingerAtTheSameSpotKeepsTheSlotPosition() {
    // The kernel does not resend unchanged X/Y for a slot; a new tracking id alone must begin there.
    var feed = Feed(.multitouch(x: axisX, y: axisY, slots: 2))
    feed.abs(EvdevCode.absMTTrackingID, 1)
    feed.abs(EvdevCode.absMTPositionX, 40)
    feed.abs(EvdevCode.absMTPositionY, 50)
    _ = feed.sync()
    feed.abs(EvdevCode.absMTTrackingID, -1)
    _ = feed.sync()
    feed.abs(EvdevCode.absMTTrackingID, 2)
    #expect(feed.sync() == [TouchEvent(.began, id: 0, x: 40, y: 50)])
}

@Test func nothingIsDeliveredBeforeSynReport() {
    var feed = Feed(.multitouch(x: axisX, y: axisY, slots: 2))
    feed.abs(EvdevCode.absMTTrackingID, 5)
    feed.abs(EvdevCode.absMTPositionX, 1)
    feed.abs(EvdevCode.absMTPositionY, 1)
    #expect(feed.events.isEmpty)
    #expect(feed.sync().count == 1)
}

@Test func synDroppedEndsContactsAndIgnoresTheRestOfThePacket() {
    var feed = Feed(.multitouch(x: axisX, y: axisY, slots: 2))
    feed.abs(EvdevCode.absMTTrackingID, 5)
    feed.abs(EvdevCode.absMTPositionX, 10)
    feed.abs(EvdevCode.absMTPositionY, 20)
    _ = feed.sync()
    feed.dropped()
    feed.abs(EvdevCode.absMTPositionX, 999)  // part of the lost packet: ignored
    #expect(feed.sync() == [TouchEvent(.ended, id: 0, x: 10, y: 20)])
    #expect(!feed.decoder.isTouching)
}

@Test func singleTouchUsesBtnTouchAndScalesTheAxes() {
    // A 12-bit resistive controller on an 800x480 panel.
    var feed = Feed(
        .singleTouch(x: AxisRange(minimum: 0, maximum: 4095), y: AxisRange(minimum: 0, maximum: 4095)),
        panel: (800, 480))
    feed.abs(EvdevCode.absX, 2048)
    feed.abs(EvdevCode.absY, 1024)
    #expect(feed.sync().isEmpty, "hovering without BTN_TOUCH is not a touch")
    feed.key(EvdevCode.btnTouch, 1)
    #expect(feed.sync() == [TouchEvent(.began, id: 0, x: 400, y: 120)])
    feed.abs(EvdevCode.absX, 4095)
    #expect(feed.sync() == [TouchEvent(.moved, id: 0, x: 4095.0 * 800 / 4096, y: 120)])
    feed.key(EvdevCode.btnTouch, 0)
    #expect(feed.sync().map(\.phase) == [.ended])
}

@Test func axisRangesWithAnOffsetMinimumAreScaledFromTheMinimum() {
    let range = AxisRange(minimum: 100, maximum: 1099)
    #expect(range.normalised(100) * 500 == 0)
    #expect(range.normalised(600) * 500 == 250)
    #expect(range.normalised(5000) == 999.0 / 1000, "values past the maximum are clamped")
    #expect(range.normalised(-7) == 0)
}

@Test func tabletLikeQemusIsAnAbsolutePointerOnBtnLeft() {
    let tablet = AxisRange(minimum: 0, maximum: 32767)
    var feed = Feed(.absolutePointer(x: tablet, y: tablet), panel: (1920, 1080))
    feed.abs(EvdevCode.absX, 16384)
    feed.abs(EvdevCode.absY, 8192)
    #expect(feed.sync().isEmpty)
    feed.key(EvdevCode.btnLeft, 1)
    #expect(feed.sync() == [TouchEvent(.began, id: 0, x: 960, y: 270)])
    feed.key(EvdevCode.btnLeft, 0)
    #expect(feed.sync() == [TouchEvent(.ended, id: 0, x: 960, y: 270)])
}

@Test func aSeededPositionLetsAClickWithoutMotionBegin() {
    let tablet = AxisRange(minimum: 0, maximum: 32767)
    var feed = Feed(.absolutePointer(x: tablet, y: tablet), panel: (1920, 1080))
    feed.decoder.seedPosition(x: 16384, y: 16384)
    feed.key(EvdevCode.btnLeft, 1)
    #expect(feed.sync() == [TouchEvent(.began, id: 0, x: 960, y: 540)])
}

@Test func relativeMouseStartsCentredAndIsClampedToThePanel() {
    var feed = Feed(.mouse, panel: (1000, 500))
    feed.rel(EvdevCode.relX, 30)
    feed.rel(EvdevCode.relY, -20)
    #expect(feed.sync().isEmpty, "moving without a button is no touch")
    feed.key(EvdevCode.btnLeft, 1)
    #expect(feed.sync() == [TouchEvent(.began, id: 0, x: 530, y: 230)])
    feed.rel(EvdevCode.relX, 10_000)
    #expect(feed.sync() == [TouchEvent(.moved, id: 0, x: 999, y: 230)])
    feed.key(EvdevCode.btnLeft, 0)
    #expect(feed.sync() == [TouchEvent(.ended, id: 0, x: 999, y: 230)])
}

@Test func touchesFollowTheRotation() {
    // Panel 1000x500 turned 90° clockwise: the picture is 500x1000.
    var feed = Feed(.absolutePointer(x: axisX, y: axisY), rotation: .clockwise90)
    feed.abs(EvdevCode.absX, 100)
    feed.abs(EvdevCode.absY, 50)
    feed.key(EvdevCode.btnLeft, 1)
    // Panel (100, 50) shows picture (50, 1000 - 100).
    #expect(feed.sync() == [TouchEvent(.began, id: 0, x: 50, y: 900)])
}

@Test func endAllLiftsEveryContactOnce() {
    var feed = Feed(.multitouch(x: axisX, y: axisY, slots: 3))
    for slot: Int32 in 0..<3 {
        feed.abs(EvdevCode.absMTSlot, slot)
        feed.abs(EvdevCode.absMTTrackingID, slot + 10)
        feed.abs(EvdevCode.absMTPositionX, slot * 100)
        feed.abs(EvdevCode.absMTPositionY, 5)
    }
    #expect(feed.sync().count == 3)
    var ended: [TouchEvent] = []
    feed.decoder.endAll(into: &ended)
    #expect(ended.map(\.id) == [0, 1, 2])
    #expect(ended.allSatisfy { $0.phase == .ended })
    ended.removeAll()
    feed.decoder.endAll(into: &ended)
    #expect(ended.isEmpty)
}

@Test func touchLinesHaveOneDecimal() {
    #expect(TouchEvent(.began, id: 3, x: 575.98, y: 0.04).description == "touch began id=3 x=576.0 y=0.0")
    #expect(TouchEvent(.moved, id: 0, x: -1.25, y: 10).description == "touch moved id=0 x=-1.3 y=10.0")
}
