import SwellJSON
import SwellRaster

/// Where a placed element lies on the screen: a `frame` member of a scene file's layer.
///
///     {"left": 0, "right": 0, "bottom": 0, "height": 300}    anchors to edges, pixels
///     {"x": "25%", "y": 40, "width": "50%", "height": 120}   a rectangle; "N%" is a share
///                                                            of the screen's width or height
///     {"x": "50% - 390", "width": 780}                       a share plus or minus pixels:
///                                                            placed from the screen's middle
///
/// Each axis takes at most two of its start (`x` or `left`; `y` or `top`), end (`right`,
/// `bottom`: distance from that edge) and size (`width`, `height`); a missing size spans what the
/// anchors leave, a size alone is centred. Resolved again for every frame size, so frames follow
/// the screen's size and rotation. Whole pixels (rounded), so a placed element draws exactly the
/// bytes it draws alone at its frame's size.
public struct ElementFrame: Equatable, Sendable {
    /// A length: pixels, a share of the screen's extent on its axis, or a share plus pixels.
    public enum Length: Equatable, Sendable {
        case pixels(Double)
        case share(Double)
        case shareAndPixels(Double, Double)

        func resolved(_ extent: Int) -> Double {
            switch self {
            case .pixels(let p): return p
            case .share(let s): return s * Double(extent)
            case .shareAndPixels(let s, let p): return s * Double(extent) + p
            }
        }
    }

    /// One axis: the start, end (from the far edge) and size given, at most two of them.
    public struct Axis: Equatable, Sendable {
        public var start: Length?
        public var end: Length?
        public var size: Length?

        public init(start: Length? = nil, end: Length? = nil, size: Length? = nil) {
            self.start = start
            self.end = end
            self.size = size
        }

        /// [low, high) in pixels on an axis `extent` long.
        func span(_ extent: Int) -> (Int, Int) {
            let e = Double(extent)
            let low: Double
            let high: Double
            switch (start?.resolved(extent), end?.resolved(extent), size?.resolved(extent)) {
            case (let s?, _, let z?): (low, high) = (s, s + z)
            case (nil, let t?, let z?): (low, high) = (e - t - z, e - t)
            case (let s?, let t?, nil): (low, high) = (s, e - t)
            case (let s?, nil, nil): (low, high) = (s, e)
            case (nil, let t?, nil): (low, high) = (0, e - t)
            case (nil, nil, let z?): (low, high) = ((e - z) / 2, (e + z) / 2)
            case (nil, nil, nil): (low, high) = (0, e)
            }
            let a = Int(max(-1e9, min(1e9, low.rounded())))
            return (a, max(a, Int(max(-1e9, min(1e9, high.rounded())))))
        }
    }

    public var horizontal: Axis
    public var vertical: Axis

    public init(horizontal: Axis = Axis(), vertical: Axis = Axis()) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The whole screen.
    public static let fullScreen = ElementFrame()

    /// The frame's pixels on a `width` x `height` screen (it may reach past the screen's edges).
    public func rect(width: Int, height: Int) -> ClipRect {
        let (x0, x1) = horizontal.span(width)
        let (y0, y1) = vertical.span(height)
        return ClipRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }
}

/// Parses a `frame` member, recording every problem; nil when any was found.
func parseElementFrame(_ field: JSONField, problems list: inout ProblemList) -> ElementFrame? {
    let before = list.problems.count
    guard let object = list.check({ () throws(JSONFieldError) in try field.object() }) else { return nil }
    let allowed = ["x", "left", "right", "width", "y", "top", "bottom", "height"]
    for key in object.keys where !allowed.contains(key) {
        list.problems.append(
            "\(field.path)\(JSONField.pathComponentForKey(key)): unknown member; allowed here: \(allowed.joined(separator: ", "))"
        )
    }
    func length(_ key: String, isSize: Bool) -> ElementFrame.Length? {
        guard let value = list.check({ () throws(JSONFieldError) in try field.optional(key) }) ?? nil else {
            return nil
        }
        return list.check { () throws(JSONFieldError) in try parseLength(value, isSize: isSize) }
    }
    func axis(_ starts: [String], _ end: String, _ size: String) -> ElementFrame.Axis {
        let given = starts.filter { object[$0] != nil }
        if given.count > 1 {
            list.problems.append("\(field.path): give \"\(starts[0])\" or \"\(starts[1])\", not both (the same edge)")
        }
        let axis = ElementFrame.Axis(
            start: given.first.flatMap { length($0, isSize: false) }, end: length(end, isSize: false),
            size: length(size, isSize: true))
        if object[end] != nil && object[size] != nil && !given.isEmpty {
            list.problems.append(
                "\(field.path): \"\(given[0])\", \"\(end)\" and \"\(size)\" together over-determine the frame; give two of them"
            )
        }
        return axis
    }
    let frame = ElementFrame(
        horizontal: axis(["x", "left"], "right", "width"), vertical: axis(["y", "top"], "bottom", "height"))
    return list.problems.count == before ? frame : nil
}

/// A length: a number of pixels (a size at least 1), "N%" with N in 0...100 for a size,
/// -100...100 for a position, or "N% + P" / "N% - P" (a share plus or minus P pixels, P in
/// 0...100000: a size may then come out below 1 px on a small screen, and draws nothing).
private func parseLength(_ field: JSONField, isSize: Bool) throws(JSONFieldError) -> ElementFrame.Length {
    let sizeRange: ClosedRange<Double> = 1...100_000
    let positionRange: ClosedRange<Double> = -100_000...100_000
    guard case .string(let text) = field.value else {
        return .pixels(try field.number(in: isSize ? sizeRange : positionRange))
    }
    guard let (percent, pixels) = shareAndPixels(text), (isSize ? 0.01...100 : -100...100).contains(percent) else {
        throw field.failure(
            "expected pixels (a number), a share of the screen like \"50%\" (\(isSize ? "0.01" : "-100")% to 100%) or a share plus or minus pixels like \"50% - 120\", got \"\(text)\""
        )
    }
    return pixels.map { .shareAndPixels(percent / 100, $0) } ?? .share(percent / 100)
}

/// "N%" as (N, nil); "N% + P" or "N% - P" as (N, ±P), P in 0...100000; nil otherwise.
private func shareAndPixels(_ text: String) -> (Double, Double?)? {
    guard let sign = text.firstIndex(of: "%") else { return nil }
    guard let percent = Double(text[..<sign]), percent.isFinite else { return nil }
    let rest = text[text.index(after: sign)...].split(separator: " ")
    if rest.isEmpty { return (percent, nil) }
    guard rest.count == 2, rest[0] == "+" || rest[0] == "-", let pixels = Double(rest[1]),
        (0...100_000).contains(pixels)
    else { return nil }
    return (percent, rest[0] == "-" ? -pixels : pixels)
}
