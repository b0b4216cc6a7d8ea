/// The geometric shapes the raster module draws. Coordinates are in pixels: pixel (i, j)
/// covers [i, i+1] x [j, j+1], y grows downward. A pixel's coverage is the fraction of its
/// area inside the shape (see bench-data/README.md for the exact semantics).

/// A stroked circle: points whose distance from the centre lies within radius ± width/2.
@frozen
public struct Ring: Equatable, Sendable {
    public var centerX: Double
    public var centerY: Double
    public var radius: Double
    public var width: Double

    @inlinable
    public init(centerX: Double, centerY: Double, radius: Double, width: Double) {
        self.centerX = centerX
        self.centerY = centerY
        self.radius = radius
        self.width = width
    }
}

/// A filled circle.
@frozen
public struct Disc: Equatable, Sendable {
    public var centerX: Double
    public var centerY: Double
    public var radius: Double

    @inlinable
    public init(centerX: Double, centerY: Double, radius: Double) {
        self.centerX = centerX
        self.centerY = centerY
        self.radius = radius
    }
}

/// y = baseline + amplitude · sin(2π·x / wavelength + phase).
@frozen
public struct Wave: Equatable, Sendable {
    public var baseline: Double
    public var amplitude: Double
    public var wavelength: Double
    public var phase: Double

    @inlinable
    public init(baseline: Double, amplitude: Double, wavelength: Double, phase: Double) {
        self.baseline = baseline
        self.amplitude = amplitude
        self.wavelength = wavelength
        self.phase = phase
    }
}

/// How a stroked wave's amplitude varies along x.
public enum WaveEnvelope: String, Equatable, Sendable {
    /// e(x) = 1.
    case none
    /// e(x) = 1 − ((x − L/2)/(L/2))², zero at both ends of the stroke's length L.
    case parabola
}

/// A sine curve y = baseline + e(x)·amplitude·sin(2π·x/wavelength + phase), 0 ≤ x ≤ length,
/// stroked `width` wide measured perpendicular to the curve.
@frozen
public struct WaveStroke: Equatable, Sendable {
    public var wave: Wave
    public var envelope: WaveEnvelope
    public var width: Double
    /// The stroke runs over 0...length (a draw list uses the frame width).
    public var length: Double

    @inlinable
    public init(wave: Wave, envelope: WaveEnvelope, width: Double, length: Double) {
        self.wave = wave
        self.envelope = envelope
        self.width = width
        self.length = length
    }
}

/// One step of a path outline. Every subpath is filled as if closed (a line back to its
/// `move` point is implied when it is not closed explicitly).
public enum PathElement: Equatable, Sendable {
    case move(x: Double, y: Double)
    case line(x: Double, y: Double)
    /// A quadratic Bézier from the current point through control (cx, cy) to (x, y).
    case quad(cx: Double, cy: Double, x: Double, y: Double)
    case close
}

/// A closed outline of lines and quadratic Béziers, filled with the non-zero winding rule.
@frozen
public struct Path: Equatable, Sendable {
    public var elements: [PathElement]

    @inlinable
    public init(_ elements: [PathElement] = []) { self.elements = elements }

    @inlinable public mutating func move(to x: Double, _ y: Double) { elements.append(.move(x: x, y: y)) }
    @inlinable public mutating func line(to x: Double, _ y: Double) { elements.append(.line(x: x, y: y)) }
    @inlinable public mutating func quad(control cx: Double, _ cy: Double, to x: Double, _ y: Double) {
        elements.append(.quad(cx: cx, cy: cy, x: x, y: y))
    }
    @inlinable public mutating func close() { elements.append(.close) }
    /// Empties the path but keeps its storage, so a scene can rebuild it every frame without allocating.
    @inlinable public mutating func removeAll() { elements.removeAll(keepingCapacity: true) }
}

/// What one draw command paints.
public enum Shape: Equatable, Sendable {
    case ring(Ring)
    case disc(Disc)
    /// The wave filled down to the bottom edge: points with y ≥ f(x).
    case waveFill(Wave)
    case waveStroke(WaveStroke)
    /// A closed path filled with the non-zero rule (see Kernels/Path/PathFill.swift for the limit).
    case path(Path)
    /// Glyph masks times the colour (Ops/GlyphRun.swift, Kernels/Glyph/GlyphComposite.swift).
    case glyphs(GlyphRun)
}

/// Where a placed element's pixel (0, 0) lies on the surface, in whole pixels.
@frozen
public struct PixelOrigin: Equatable, Sendable {
    public var x: Int
    public var y: Int

    @inlinable
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = PixelOrigin(x: 0, y: 0)
}

/// One compositing step: a shape in a colour, placed on the surface (`OpPlacement`, as every
/// other op of a frame is), optionally limited to a clip rectangle.
///
/// `origin` places the shape: its coordinates count from that surface pixel, and the shape draws
/// as it would on a surface starting there (a wave spans from `origin.x` to the right edge, a
/// wave fill reaches the bottom). The clip stays in surface pixels. Whole pixels only, so a
/// placed shape has exactly the bytes of the same shape drawn at (0, 0) on a surface of its size;
/// an origin left of the surface (`x < 0`) draws nothing.
public struct DrawCommand: Equatable, Sendable {
    public var shape: Shape
    public var color: Color
    /// Where the shape lands and what it may draw on.
    public var placement: OpPlacement

    public init(_ shape: Shape, color: Color, clip: ClipRect? = nil, origin: PixelOrigin = .zero) {
        self.init(shape, color: color, at: OpPlacement(origin: origin, clip: clip))
    }

    public init(_ shape: Shape, color: Color, at placement: OpPlacement) {
        self.shape = shape
        self.color = color
        self.placement = placement
    }

    /// The placement's clip, in surface pixels (nil: anywhere).
    @inlinable public var clip: ClipRect? {
        get { placement.clip }
        set { placement.clip = newValue }
    }

    /// The placement's origin: the surface pixel the shape's (0, 0) lands on.
    @inlinable public var origin: PixelOrigin {
        get { placement.origin }
        set { placement.origin = newValue }
    }
}
