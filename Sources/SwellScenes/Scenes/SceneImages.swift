import SwellRaster

/// The pictures a scene shows, decoded only when the scene needs one. This module reads no
/// files, so the caller supplies `decode` (the `swell` command reads PNG files with it). A
/// slideshow of a folder of hundreds of photographs then holds a few screen-sized frames, not
/// every picture at its own size.
public struct SceneImages {
    /// How many pictures there are; a scene asks only for indices 0..<count.
    public let count: Int
    /// Decodes picture `index` at its own size, or throws an error whose description says why.
    /// It is called on a background queue as well as on the render thread, but never twice at
    /// the same time.
    public let decode: (Int) throws -> PixelBuffer

    public init(count: Int, decode: @escaping (Int) throws -> PixelBuffer) {
        self.count = max(0, count)
        self.decode = decode
    }

    /// Pictures that are already decoded (tests, or a caller that keeps them in memory anyway).
    public init(_ decoded: [PixelBuffer]) {
        self.init(count: decoded.count) { decoded[$0] }
    }

    /// No pictures.
    public static var none: SceneImages { SceneImages([]) }
}
