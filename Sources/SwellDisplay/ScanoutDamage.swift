import SwellRaster
import SwellService

/// What each of a presenter's scan-out buffers is missing: the damage of every frame presented
/// since that buffer was last written (EGL's buffer age, kept as rectangles). A buffer that
/// missed one frame (the back buffer of a page flip) gets that frame's damage and this one's; a
/// new buffer, or one whose contents are unknown, gets the whole picture.
///
/// Allocates nothing once warm: each buffer's `Damage` keeps its storage across frames.
struct ScanoutDamage {
    private var missing: [Damage]
    private let whole: ClipRect

    /// `buffers` scan-out buffers of a `width` x `height` picture, none written yet.
    init(buffers: Int, width: Int, height: Int) {
        whole = ClipRect(x0: 0, y0: 0, x1: width, y1: height)
        missing = (0..<buffers).map { _ in Damage() }
        invalidateAll()
    }

    /// A new frame is in the shadow: every buffer now misses `damage` too.
    mutating func add(_ damage: Damage) {
        for index in missing.indices { missing[index].formUnion(damage) }
    }

    /// Every buffer needs the whole picture (new buffers, or contents no longer known).
    mutating func invalidateAll() {
        for index in missing.indices {
            missing[index].removeAll()
            missing[index].add(whole)
        }
    }

    /// Calls `copy` with each rectangle buffer `index` misses, then counts it up to date.
    mutating func bringUpToDate(buffer index: Int, _ copy: (ClipRect) -> Void) {
        for rect in missing[index].rects { copy(rect) }
        missing[index].removeAll()
    }

    /// Whether buffer `index` misses nothing.
    func isUpToDate(buffer index: Int) -> Bool { missing[index].isEmpty }
}
