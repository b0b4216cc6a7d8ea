import SwellRaster
import SwellSystem

/// The pictures a scene shows, by name, decoded only when the scene needs one. This module reads
/// no files, so the caller supplies `decode` (the `swell` command reads PNG and JPEG files with it) and,
/// for a folder that may change while the scene runs, `relist` and `version`. A slideshow of a
/// folder of hundreds of photographs then holds a few screen-sized frames, not every picture.
public struct SceneImages {
    /// The pictures' names (file names), in ascending order: the order they are shown in.
    public let names: [String]
    /// Decodes the picture `name`, or throws an error whose description says why. The size is the
    /// frame it will be scaled into: a decoder may return the picture reduced (a large JPEG, in
    /// its DCT) as long as it still covers that size; at its own size is always right. It is
    /// called on the picture loader's thread (`PictureLoader`) as well as on the render thread,
    /// but never twice at a time for one scene.
    public let decode: (String, FrameSize) throws -> PixelBuffer
    /// Reads the names again (the folder may have changed), in ascending order; nil when they
    /// cannot be read. A slideshow calls it at each change of picture. nil: the set is fixed.
    public let relist: (() -> [String]?)?
    /// The version of picture `name` as it is now (nil: unknown, e.g. the file is gone). A slideshow
    /// compares it at each change with the version it decoded, so a picture replaced in place
    /// (the same name, new content) is decoded again. nil: pictures never change.
    public let version: ((String) -> PictureVersion?)?

    public var count: Int { names.count }

    public init(
        names: [String], decode: @escaping (String, FrameSize) throws -> PixelBuffer,
        relist: (() -> [String]?)? = nil, version: ((String) -> PictureVersion?)? = nil
    ) {
        self.names = names
        self.decode = decode
        self.relist = relist
        self.version = version
    }

    /// Pictures that are already decoded (tests, or a caller that keeps them in memory anyway),
    /// named by their zero-padded position ("0000", "0001", …).
    public init(_ decoded: [PixelBuffer]) {
        let names = decoded.indices.map { Self.positionName($0) }
        self.init(names: names) { name, _ in decoded[Int(name)!] }
    }

    /// The name `init(_:)` gives the picture at `position`.
    public static func positionName(_ position: Int) -> String {
        let digits = String(position)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// No pictures.
    public static var none: SceneImages { SceneImages([]) }
}

/// What tells one version of a picture from the next: for a file, SwellSystem's `FileVersion`
/// (modification time, size and inode, one of which changes when the file is rewritten or
/// replaced). Only ever compared.
public typealias PictureVersion = FileVersion

/// The picture after `name` in `names` (ascending): the next name, wrapping round; for a name
/// no longer listed, the first that sorts after it (so pictures added or removed since `name` was
/// listed are taken into account). nil when `names` is empty.
func picture(after name: String, in names: [String]) -> String? {
    guard let first = names.first else { return nil }
    if let index = names.firstIndex(of: name) { return names[(index + 1) % names.count] }
    return names.first { $0 > name } ?? first
}
