import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

/// Touch calibration: libinput's matrix, its fit from four taps, and where it applies.
@Suite struct TouchCalibrationTests {
    /// A touch overlay glued on mirrored left-to-right and with its sensor 10 % larger than the
    /// picture vertically (offset by 5 %): panel = M·device.
    static let overlay = TouchCalibration(-1, 0, 1, 0, 1.1, -0.05)

    /// Where a device that needs `matrix` reports a touch on panel point (px, py) (normalised):
    /// M⁻¹ applied to it.
    static func deviceReport(of panel: (x: Double, y: Double), needing m: TouchCalibration) -> (x: Double, y: Double) {
        let det = m.a * m.e - m.b * m.d
        let x = panel.x - m.c
        let y = panel.y - m.f
        return ((m.e * x - m.b * y) / det, (-m.d * x + m.a * y) / det)
    }

    @Test func readsCommasOrLibinputsSpacesAndRefusesAnythingElse() throws {
        #expect(TouchCalibration(text: "0,1,0,1,0,0") == TouchCalibration(0, 1, 0, 1, 0, 0))
        #expect(TouchCalibration(text: "-1 0 1 0 1 0") == TouchCalibration(-1, 0, 1, 0, 1, 0))
        for bad in ["1,0,0", "1,0,0,0,1,0,0", "a,b,c,d,e,f", "1,0,0,0,nan,0", ""] {
            #expect(TouchCalibration(text: bad) == nil, "'\(bad)'")
        }
        #expect(TouchCalibration(text: "1,2,0,2,4,0")?.isDegenerate == true, "it folds the screen onto a line")
        #expect(TouchCalibration.identity.isDegenerate == false)
    }

    @Test func printsWhatTheOptionAndLibinputTake() throws {
        #expect(TouchCalibration.identity.description == "1,0,0,0,1,0")
        #expect(Self.overlay.description == "-1,0,1,0,1.1,-0.05")
        #expect(Self.overlay.libinputProperty == "-1 0 1 0 1.1 -0.05")
        #expect(TouchCalibration(0.12345678, 0, 0, 0, 1, 0).description == "0.123457,0,0,0,1,0")
        #expect(TouchCalibration(text: Self.overlay.description) == Self.overlay)
    }

    @Test func fourTapsGiveBackTheMatrixTheyWereMadeWith() throws {
        let targets = [(0.125, 0.125), (0.875, 0.125), (0.875, 0.875), (0.125, 0.875)].map { (x: $0.0, y: $0.1) }
        for matrix in [
            Self.overlay, TouchCalibration(0, 1, 0, 1, 0, 0), TouchCalibration(0.9, 0.05, 0.02, -0.03, 1.2, 0),
        ] {
            let measured = targets.map { Self.deviceReport(of: $0, needing: matrix) }
            let fit = try #require(TouchCalibration.fitted(measured: measured, targets: targets))
            for (got, want) in zip(
                [fit.a, fit.b, fit.c, fit.d, fit.e, fit.f],
                [matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f])
            {
                #expect(abs(got - want) < 1e-9, "\(fit) vs \(matrix)")
            }
        }
    }

    @Test func aShakyTapIsAveragedAndTapsOnALineAreRefused() throws {
        let targets = [(0.125, 0.125), (0.875, 0.125), (0.875, 0.875), (0.125, 0.875)].map { (x: $0.0, y: $0.1) }
        var measured = targets
        measured[2].x += 0.01  // one tap 1 % of the width off
        let fit = try #require(TouchCalibration.fitted(measured: measured, targets: targets))
        // No exact solution: the error is spread, so every tap lands within that 1 %.
        for (point, target) in zip(measured, targets) {
            let landed = fit.apply(x: point.x, y: point.y)
            #expect(abs(landed.x - target.x) < 0.01 && abs(landed.y - target.y) < 0.01)
        }
        let line = [(0.1, 0.1), (0.2, 0.2), (0.3, 0.3), (0.4, 0.4)].map { (x: $0.0, y: $0.1) }
        #expect(TouchCalibration.fitted(measured: line, targets: targets) == nil)
        #expect(TouchCalibration.fitted(measured: Array(measured.prefix(2)), targets: Array(targets.prefix(2))) == nil)
    }

    @Test(arguments: Rotation.allCases) func panelPointsAreTheInverseOfPicturePoints(rotation: Rotation) {
        let mapping = ScreenMapping(panelWidth: 1920, panelHeight: 1080, rotation: rotation)
        for (x, y) in [(0.0, 0.0), (100.5, 37.25), (1919.0, 1079.0), (480.0, 270.0)] {
            let picture = mapping.picturePoint(panelX: x, panelY: y)
            let back = mapping.normalisedPanelPoint(pictureX: picture.x, pictureY: picture.y)
            #expect(abs(back.x * 1920 - x) < 1e-9 && abs(back.y * 1080 - y) < 1e-9)
        }
    }

    @Test func theDecoderAppliesTheMatrixBeforeTheRotation() {
        let tablet = AxisRange(minimum: 0, maximum: 32767)
        let mirrored = TouchCalibration(-1, 0, 1, 0, 1, 0)
        // A tap a quarter across and half down the device.
        func tap(_ mapping: ScreenMapping) -> [TouchEvent] {
            var decoder = EvdevDecoder(kind: .absolutePointer(x: tablet, y: tablet), mapping: mapping)
            var events: [TouchEvent] = []
            decoder.feed(type: EvdevCode.absType, code: EvdevCode.absX, value: 8192, into: &events)
            decoder.feed(type: EvdevCode.absType, code: EvdevCode.absY, value: 16384, into: &events)
            decoder.feed(type: EvdevCode.keyType, code: EvdevCode.btnLeft, value: 1, into: &events)
            decoder.feed(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0, into: &events)
            return events
        }
        #expect(
            tap(ScreenMapping(panelWidth: 1920, panelHeight: 1080, rotation: .none)) == [
                TouchEvent(.began, id: 0, x: 480, y: 540)
            ])
        #expect(
            tap(ScreenMapping(panelWidth: 1920, panelHeight: 1080, rotation: .none, calibration: mirrored))
                == [TouchEvent(.began, id: 0, x: 1440, y: 540)])
        // Mirrored on the panel, then the panel turned 90° clockwise (picture 1080 wide): panel
        // (1440, 540) is picture (540, 1920 − 1440).
        #expect(
            tap(ScreenMapping(panelWidth: 1920, panelHeight: 1080, rotation: .clockwise90, calibration: mirrored))
                == [TouchEvent(.began, id: 0, x: 540, y: 480)])
    }

    @Test(arguments: [Rotation.none, .clockwise90]) func aCalibrationSessionMeasuresTheOverlay(rotation: Rotation)
        throws
    {
        let uncalibrated = ScreenMapping(panelWidth: 1280, panelHeight: 800, rotation: rotation)
        let picture = uncalibrated.logicalSize
        var session = CalibrationSession(pictureWidth: picture.width, pictureHeight: picture.height)
        #expect(
            session.prompt
                == "calibrate: tap the centre of the cross 1 of 4 at x=\(picture.width / 8) y=\(picture.height / 8)")
        var outcome: CalibrationSession.Outcome = .next
        while let target = session.nextTarget {
            // Where the mis-calibrated overlay reports a finger on the cross, uncalibrated.
            let panel = uncalibrated.normalisedPanelPoint(pictureX: target.x, pictureY: target.y)
            let device = Self.deviceReport(of: panel, needing: Self.overlay)
            let reported = uncalibrated.picturePoint(deviceX: device.x, deviceY: device.y)
            outcome = session.record(x: reported.x, y: reported.y, mapping: uncalibrated)
        }
        guard case .calibrated(let fit, let miss) = outcome else {
            Issue.record("no calibration after four taps: \(outcome)")
            return
        }
        #expect(fit.description == Self.overlay.description && miss < 1e-6)
        #expect(session.prompt == "calibrate: done")
    }

    @Test func tappingOneSpotFourTimesStartsAgain() {
        let mapping = ScreenMapping(panelWidth: 1280, panelHeight: 800, rotation: .none)
        var session = CalibrationSession(pictureWidth: 1280, pictureHeight: 800)
        var outcomes: [CalibrationSession.Outcome] = []
        for _ in 0..<4 { outcomes.append(session.record(x: 640, y: 400, mapping: mapping)) }
        #expect(outcomes == [.next, .next, .next, .degenerate])
        #expect(session.taps.isEmpty && session.nextTarget! == (160, 100))
    }
}
