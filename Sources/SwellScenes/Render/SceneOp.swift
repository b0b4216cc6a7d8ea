import SwellRaster

/// One step of a scene's frame, in drawing order: a command of the frame's display list
/// (`FrameCommand`: shapes, pictures, layers and their masks), rendered by `FrameRenderer`.
public typealias SceneOp = FrameCommand

/// The size of the frame a scene draws, in pixels.
public struct FrameSize: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
