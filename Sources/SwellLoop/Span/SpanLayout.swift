import SwellDisplay
import SwellInput
import SwellRaster
import SwellService

/// Where each output of a span lies on the one canvas a scene is laid out for.
///
/// Side by side (`row`, the outputs left to right in the order given) the canvas is as wide as
/// the pictures together plus a bezel between each two neighbours, and as high as one of them:
/// outputs of different heights cannot be put side by side without saying how, so that is a
/// usage error asking for positions. `column` stacks them top to bottom the same way (one
/// width). `positions` places each output's top-left corner on the canvas explicitly (any sizes;
/// the canvas is the box around them; overlaps are refused). The bezel's pixels belong to no
/// output: they are drawn on the canvas and shown nowhere, so a line crossing the gap between
/// two panels stays straight, as it does on a video wall.
public struct SpanLayout: Sendable, Equatable {
    public enum Arrangement: Sendable, Equatable {
        case row
        case column
        case positions([Position])
    }

    public struct Position: Sendable, Equatable {
        public var name: String
        public var x: Int
        public var y: Int

        public init(name: String, x: Int, y: Int) {
            self.name = name
            self.x = x
            self.y = y
        }
    }

    /// One output's picture size (after rotation: the span is of pictures, not panels).
    public struct Output: Sendable, Equatable {
        public var name: String
        public var width: Int
        public var height: Int

        public init(name: String, width: Int, height: Int) {
            self.name = name
            self.width = width
            self.height = height
        }
    }

    public let canvasWidth: Int
    public let canvasHeight: Int
    /// Each output's rectangle on the canvas, in the order the outputs were given.
    public let tiles: [ClipRect]
    public let names: [String]

    /// What keeps outputs from making one canvas. The caller words it (`message(_:)`) in the
    /// spelling its owner wrote: options on a command line, members of a kiosk file.
    public enum Problem: Error, Equatable {
        case negativeBezel(Int)
        case bezelWithPositions
        /// Outputs in a row (`what` "height") or column ("width") whose sizes differ.
        case sizesDiffer(what: String, arrangement: String, sizes: String)
        case positionCount(output: String, given: Int)
        case strayPosition(String)
        case overlap(String, String)
        case notAtOrigin
    }

    /// How the caller spells a span's settings in its messages.
    public struct Words: Sendable {
        public var span: String
        public var position: String
        public var bezel: String
        public var rotate: String
        public var mode: String

        public init(span: String, position: String, bezel: String, rotate: String, mode: String) {
            self.span = span
            self.position = position
            self.bezel = bezel
            self.rotate = rotate
            self.mode = mode
        }
    }

    /// One line saying what is wrong and the fix, in `words`.
    public static func message(_ problem: Problem, _ words: Words) -> String {
        switch problem {
        case .negativeBezel(let bezel): "\(words.bezel) wants a number of pixels ≥ 0, not \(bezel)"
        case .bezelWithPositions:
            "\(words.bezel) goes with a row or column; with \(words.position) the positions hold the gaps"
        case .sizesDiffer(let what, let arrangement, let sizes):
            "\(words.span): outputs \(arrangement) need one \(what), but they are \(sizes) (after \(words.rotate)); "
                + "say where each goes with \(words.position) (one per output), or choose modes of one \(what) with "
                + words.mode
        case .positionCount(let output, let given):
            "\(words.position): \(output) needs exactly one position (given \(given)); every output of "
                + "\(words.span) takes one"
        case .strayPosition(let name): "\(words.position): \(name) is not one of \(words.span)'s outputs"
        case .overlap(let a, let b): "\(words.position): \(a) and \(b) overlap on the canvas; move one"
        case .notAtOrigin:
            "\(words.position): the canvas starts at 0,0: put the leftmost output at X 0 and the topmost at Y 0"
        }
    }

    /// Lays `outputs` out; a problem for sizes that do not line up, a bezel below 0, or
    /// positions missing, given twice, overlapping or off the canvas's top-left.
    public init(outputs: [Output], arrangement: Arrangement, bezel: Int = 0) throws(Problem) {
        precondition(!outputs.isEmpty, "a span needs outputs")
        guard bezel >= 0 else { throw .negativeBezel(bezel) }
        names = outputs.map(\.name)
        switch arrangement {
        case .row:
            try Self.requireSame(outputs, \.height, what: "height", arrangement: "side by side (row)")
            tiles = Self.line(outputs.map(\.width), bezel: bezel) { x0, x1 in
                ClipRect(x0: x0, y0: 0, x1: x1, y1: outputs[0].height)
            }
        case .column:
            try Self.requireSame(outputs, \.width, what: "width", arrangement: "one above the other (column)")
            tiles = Self.line(outputs.map(\.height), bezel: bezel) { y0, y1 in
                ClipRect(x0: 0, y0: y0, x1: outputs[0].width, y1: y1)
            }
        case .positions(let positions):
            guard bezel == 0 else { throw .bezelWithPositions }
            tiles = try Self.placed(outputs, positions)
        }
        canvasWidth = tiles.map(\.x1).max()!
        canvasHeight = tiles.map(\.y1).max()!
    }

    /// Output `index`'s viewport of the canvas.
    public func viewport(_ index: Int) -> Viewport {
        Viewport(canvasWidth: canvasWidth, canvasHeight: canvasHeight, rect: tiles[index])!
    }

    /// "3840x1080: Virtual-1 0,0 1920x1080, Virtual-2 1960,0 1920x1080" (for the journal).
    public var description: String {
        "\(canvasWidth)x\(canvasHeight): "
            + zip(names, tiles).map { "\($0) \($1.x0),\($1.y0) \($1.x1 - $1.x0)x\($1.y1 - $1.y0)" }.joined(
                separator: ", ")
    }

    /// Lengths one after another along an axis, `bezel` apart.
    private static func line(_ lengths: [Int], bezel: Int, rect: (Int, Int) -> ClipRect) -> [ClipRect] {
        var start = 0
        return lengths.map { length in
            defer { start += length + bezel }
            return rect(start, start + length)
        }
    }

    private static func requireSame(
        _ outputs: [Output], _ key: KeyPath<Output, Int>, what: String, arrangement: String
    ) throws(Problem) {
        guard Set(outputs.map { $0[keyPath: key] }).count > 1 else { return }
        let sizes = outputs.map { "\($0.name) \($0.width)x\($0.height)" }.joined(separator: ", ")
        throw .sizesDiffer(what: what, arrangement: arrangement, sizes: sizes)
    }

    private static func placed(_ outputs: [Output], _ positions: [Position]) throws(Problem) -> [ClipRect] {
        var tiles: [ClipRect] = []
        for output in outputs {
            let given = positions.filter { TouchRouting.sameOutput($0.name, output.name) }
            guard given.count == 1, let position = given.first else {
                throw .positionCount(output: output.name, given: given.count)
            }
            tiles.append(
                ClipRect(
                    x0: position.x, y0: position.y, x1: position.x + output.width, y1: position.y + output.height))
        }
        let stray = positions.filter { position in !outputs.contains { TouchRouting.sameOutput($0.name, position.name) }
        }
        if let position = stray.first {
            throw .strayPosition(position.name)
        }
        for i in tiles.indices {
            for j in tiles.indices where j > i && !tiles[i].intersection(tiles[j]).isEmpty {
                throw .overlap(outputs[i].name, outputs[j].name)
            }
        }
        guard tiles.map(\.x0).min() == 0, tiles.map(\.y0).min() == 0 else { throw .notAtOrigin }
        return tiles
    }
}
