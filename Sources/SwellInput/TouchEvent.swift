import SwellDisplay
import SwellService

/// One finger (or pointer button) touching down, moving, or lifting, in picture coordinates
/// (pixels, rotation applied; (0, 0) is the picture's top-left corner).
public struct TouchEvent: Equatable, Sendable, CustomStringConvertible {
    public enum Phase: String, Sendable {
        case began, moved, ended
    }

    public var phase: Phase
    /// Stable from `began` to `ended` for one finger; a lifted finger's id is reused later.
    public var id: Int
    public var x: Double
    public var y: Double
    /// The output whose picture the coordinates are in (an index into the outputs the input
    /// monitor routes to, `TouchRouting`; 0 with one output).
    public var output: Int

    public init(_ phase: Phase, id: Int, x: Double, y: Double, output: Int = 0) {
        self.phase = phase
        self.id = id
        self.x = x
        self.y = y
        self.output = output
    }

    /// "touch began id=0 x=480.0 y=270.0" (the line `swell touch-test` prints).
    public var description: String {
        "touch \(phase.rawValue) id=\(id) x=\(formatTenths(x)) y=\(formatTenths(y))"
    }
}

/// A position or distance in pixels with one decimal, "480.0", "-3.5" (touch lines, calibration).
public func formatTenths(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    let sign = tenths < 0 ? "-" : ""
    let magnitude = Int(abs(tenths))
    return "\(sign)\(magnitude / 10).\(magnitude % 10)"
}

/// Maps device coordinates to picture coordinates: an axis range onto the panel, then the rotation.
public struct ScreenMapping: Sendable, Equatable {
    public var panelWidth: Int
    public var panelHeight: Int
    public var rotation: Rotation
    /// The touch controller's correction, applied to absolute devices before the rotation.
    public var calibration: TouchCalibration

    public init(panelWidth: Int, panelHeight: Int, rotation: Rotation, calibration: TouchCalibration = .identity) {
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.rotation = rotation
        self.calibration = calibration
    }

    public var logicalSize: (width: Int, height: Int) {
        rotation.logicalSize(panelWidth: panelWidth, panelHeight: panelHeight)
    }

    /// Where a panel position (continuous pixels) lies in the picture.
    public func picturePoint(panelX: Double, panelY: Double) -> (x: Double, y: Double) {
        let size = logicalSize
        return rotation.pictureCoordinates(
            panelX: panelX, panelY: panelY, logicalWidth: size.width, logicalHeight: size.height)
    }

    /// Where an absolute device's position (normalised to 0...1 over its axis ranges) lies in
    /// the picture: the calibration, then the panel's size, then the rotation.
    public func picturePoint(deviceX: Double, deviceY: Double) -> (x: Double, y: Double) {
        let corrected = calibration.apply(x: deviceX, y: deviceY)
        return picturePoint(panelX: corrected.x * Double(panelWidth), panelY: corrected.y * Double(panelHeight))
    }

    /// The inverse of `picturePoint(panelX:panelY:)`: where a picture position lies on the
    /// panel, normalised to 0...1 (what `touch-test --calibrate` compares taps with).
    public func normalisedPanelPoint(pictureX x: Double, pictureY y: Double) -> (x: Double, y: Double) {
        let (w, h) = (Double(panelWidth), Double(panelHeight))
        let panel: (Double, Double)
        switch rotation {
        case .none: panel = (x, y)
        case .clockwise90: panel = (w - y, x)
        case .upsideDown: panel = (w - x, h - y)
        case .clockwise270: panel = (y, h - x)
        }
        return (panel.0 / w, panel.1 / h)
    }
}

/// An absolute axis's range as the device reports it (EVIOCGABS).
public struct AxisRange: Sendable, Equatable {
    public var minimum: Int32
    public var maximum: Int32
    /// Units per millimetre (0: the device does not say); what tells a touch screen's physical
    /// size, to find its panel among several (`TouchRouting`).
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }

    /// A raw value as a fraction of the range, 0 ..< 1 (libinput's convention: the range's
    /// `max - min + 1` steps cover the panel, so the maximum lands just inside the last pixel).
    public func normalised(_ value: Int32) -> Double {
        let span = Double(maximum) - Double(minimum) + 1
        guard span > 0 else { return 0 }
        let clamped = min(max(value, minimum), maximum)
        return (Double(clamped) - Double(minimum)) / span
    }
}
