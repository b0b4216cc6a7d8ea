/// The parts of a frame that can differ from the frame before it, as a short list of pixel
/// rectangles (EGL's damage and KMS's `FB_DAMAGE_CLIPS` speak the same language).
///
/// Design rules:
/// - Conservative: a pixel outside every rectangle is the same bytes as in the previous frame.
///   Overestimating costs time, never correctness.
/// - Short: at most `maximumRects` rectangles. Past that, the two rectangles whose merge adds the
///   least area are merged, so a page with a clock and a wave strip keeps two rectangles, and a
///   pond of a thousand ripples ends as a few large ones.
/// - No allocation once warm: the storage keeps its capacity across `removeAll()`. An owner that
///   keeps a copy (a presenter remembering a back buffer's damage) copies the rectangles into its
///   own `Damage` with `formUnion`, so the producer's next frame does not trigger copy-on-write.
public struct Damage: Equatable, Sendable {
    /// Rectangles in frame pixels, non-empty, in no particular order (they may overlap).
    public private(set) var rects: [ClipRect] = []

    /// The most rectangles kept; more are merged.
    public static let maximumRects = 16

    /// No damage: nothing changed.
    public init() { rects.reserveCapacity(Self.maximumRects + 1) }

    /// Damage covering exactly these rectangles (empty ones are dropped).
    public init(_ rects: [ClipRect]) {
        self.init()
        for rect in rects { add(rect) }
    }

    /// Every pixel of a `width` x `height` frame.
    public static func whole(width: Int, height: Int) -> Damage {
        Damage([ClipRect(x0: 0, y0: 0, x1: width, y1: height)])
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// The smallest rectangle holding every damaged pixel (empty when nothing changed).
    public var bounds: ClipRect {
        guard var result = rects.first else { return ClipRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        for rect in rects.dropFirst() { result = result.union(rect) }
        return result
    }

    /// Pixels covered, counting overlaps once per rectangle (an upper bound of the damaged area).
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    /// Forgets every rectangle, keeping the storage.
    public mutating func removeAll() { rects.removeAll(keepingCapacity: true) }

    /// Adds a rectangle. One already covered adds nothing; one that covers others replaces them.
    public mutating func add(_ rect: ClipRect) {
        guard !rect.isEmpty else { return }
        if rects.contains(where: { $0.contains(rect) }) { return }
        rects.removeAll { rect.contains($0) }
        rects.append(rect)
        if rects.count > Self.maximumRects { mergeCheapestPair() }
    }

    /// Adds every rectangle of `other`.
    public mutating func formUnion(_ other: Damage) {
        for rect in other.rects { add(rect) }
    }

    /// Keeps only what lies inside `clip`.
    public mutating func formIntersection(_ clip: ClipRect) {
        for index in rects.indices { rects[index] = rects[index].intersection(clip) }
        rects.removeAll { $0.isEmpty }
    }

    /// Whether any damaged rectangle meets `rect`.
    public func intersects(_ rect: ClipRect) -> Bool {
        rects.contains { !$0.intersection(rect).isEmpty }
    }

    /// Merges the two rectangles whose bounding box wastes the least area.
    private mutating func mergeCheapestPair() {
        var best = (first: 0, second: 1, waste: Int.max)
        for first in rects.indices {
            for second in (first + 1)..<rects.count {
                let merged = rects[first].union(rects[second])
                let waste = merged.area - rects[first].area - rects[second].area
                if waste < best.waste { best = (first, second, waste) }
            }
        }
        let merged = rects[best.first].union(rects[best.second])
        rects.remove(at: best.second)
        rects[best.first] = merged
        // The merged rectangle may now cover others.
        rects.removeAll { $0 != merged && merged.contains($0) }
    }
}

extension ClipRect {
    /// Pixels inside (0 when empty).
    @inlinable public var area: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }

    /// Whether every pixel of `other` is inside this rectangle (an empty one always is).
    @inlinable
    public func contains(_ other: ClipRect) -> Bool {
        other.isEmpty || (x0 <= other.x0 && y0 <= other.y0 && x1 >= other.x1 && y1 >= other.y1)
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    @inlinable
    public func union(_ other: ClipRect) -> ClipRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return ClipRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }
}
