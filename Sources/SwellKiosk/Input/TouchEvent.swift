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

    public init(_ phase: Phase, id: Int, x: Double, y: Double) {
        self.phase = phase
        self.id = id
        self.x = x
        self.y = y
    }

    /// "touch began id=0 x=480.0 y=270.0" (the line `swell touch-test` prints).
    public var description: String {
        "touch \(phase.rawValue) id=\(id) x=\(formatted(x)) y=\(formatted(y))"
    }

    private func formatted(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let sign = tenths < 0 ? "-" : ""
        let magnitude = Int(abs(tenths))
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}

/// Maps device coordinates to picture coordinates: an axis range onto the panel, then the rotation.
public struct ScreenMapping: Sendable, Equatable {
    public var panelWidth: Int
    public var panelHeight: Int
    public var rotation: Rotation

    public init(panelWidth: Int, panelHeight: Int, rotation: Rotation) {
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.rotation = rotation
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
}

/// An absolute axis's range as the device reports it (EVIOCGABS).
public struct AxisRange: Sendable, Equatable {
    public var minimum: Int32
    public var maximum: Int32

    public init(minimum: Int32, maximum: Int32) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Scales a raw value onto `pixels` (libinput's convention: the range's `max - min + 1`
    /// steps cover the panel, so the maximum lands just inside the last pixel).
    public func scale(_ value: Int32, toPixels pixels: Int) -> Double {
        let span = Double(maximum) - Double(minimum) + 1
        guard span > 0 else { return 0 }
        let clamped = min(max(value, minimum), maximum)
        return (Double(clamped) - Double(minimum)) * Double(pixels) / span
    }
}
