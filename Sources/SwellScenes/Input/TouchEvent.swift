/// One touch-screen event in scene coordinates: pixels from the top-left, seconds on the
/// scene clock. Fingers are told apart by `finger` (a slot or tracking id from the device).
public struct TouchEvent: Equatable, Sendable {
    public enum Phase: String, Equatable, Sendable {
        case began
        case moved
        case ended
    }

    public var phase: Phase
    public var finger: Int
    public var x: Double
    public var y: Double
    public var time: Double

    public init(_ phase: Phase, finger: Int, x: Double, y: Double, time: Double) {
        self.phase = phase
        self.finger = finger
        self.x = x
        self.y = y
        self.time = time
    }
}
