import SwellRaster

/// Where the elements of the shown page lie on the screen, and drawing them there.
///
/// An element with a frame (`ScenePlayer.Placement`) renders at its frame's size, and its ops
/// are placed at the frame's origin and clipped to the frame (grown by a button's bounce), so
/// placement is part of the one display list. Frames are in page coordinates and move with the
/// page's scroll; elements without a frame fill the screen and stay on it (a background).
struct ElementPlacement {
    /// The screen's size: set by each frame, or before the first for touches that come first.
    var screen = FrameSize(width: 1, height: 1)
    /// The scroll offset of the frame being drawn (whole pixels, so elements stay on the grid).
    private(set) var shownOffset = 0
    /// The tops last told to scroll followers, per layer.
    private var toldTops: [Int?] = []

    /// Forgets what was placed for the page shown before (a new page starts unscrolled).
    mutating func reset() {
        shownOffset = 0
        toldTops = []
    }

    /// The pixels of `page`'s layer `index` on the screen.
    func rect(of index: Int, in page: ScenePage) -> ClipRect {
        guard let frame = page.placements[index].frame else {
            return ElementFrame.fullScreen.rect(width: screen.width, height: screen.height)
        }
        return frame.rect(width: screen.width, height: page.height ?? screen.height).offsetBy(0, -shownOffset)
    }

    /// The largest scroll offset of `page` on the screen.
    private func scrollLimit(of page: ScenePage) -> Double {
        Double((page.height ?? screen.height) - screen.height)
    }

    /// Scrolls `page` to where it is at `time` (a page that does not scroll stays at its top).
    mutating func scroll(_ page: ScenePage, at time: Double) {
        guard page.height != nil else { return }
        shownOffset = Int(page.scroll.offset(at: time, limit: scrollLimit(of: page)).rounded())
    }

    /// A scrolling page follows every finger, on buttons too (as a scroll view does).
    mutating func scroll(_ page: inout ScenePage, with event: TouchEvent) {
        guard page.height != nil else { return }
        page.scroll.handle(event, limit: scrollLimit(of: page))
        scroll(page, at: event.time)
    }

    /// Appends layer `index` of `page` at `time` to `commands`: drawn over the whole screen, or
    /// at its frame's size and placed there.
    mutating func render(
        _ index: Int, of page: inout ScenePage, at time: Double, into commands: inout [FrameCommand]
    ) {
        guard page.placements[index].frame != nil else {
            page.layers[index].render(at: time, size: screen, into: &commands)
            return
        }
        let rect = rect(of: index, in: page)
        guard !rect.isEmpty, rect.y1 > 0, rect.y0 < screen.height else { return }
        if page.height != nil { tellPlace(rect, to: index, of: &page) }
        let visible = roomToBounce(index, of: &page, frame: rect)
        let start = commands.count
        page.layers[index].render(
            at: time, size: FrameSize(width: visible.x1 - visible.x0, height: visible.y1 - visible.y0),
            into: &commands)
        let placement = OpPlacement(origin: PixelOrigin(x: visible.x0, y: visible.y0), clip: visible)
        for op in start..<commands.count { commands[op].place(placement) }
    }

    /// The area element `index` draws into: its frame, or a button's frame grown by the room its
    /// bulge needs. Drawing starts at the area's top-left corner (a surface placed there cannot
    /// reach up or left of it), so the button learns where its frame lies inside the area; only
    /// when that changes, as re-boxing the scene costs an allocation.
    private func roomToBounce(_ index: Int, of page: inout ScenePage, frame rect: ClipRect) -> ClipRect {
        // Only elements that bounce (buttons, fields) are looked at as buttons.
        let grow = page.layers[index].overflow
        guard grow > 0, var button = page.layers[index] as? ButtonScene else { return rect }
        // Not left of the screen: a surface is placed only from column 0 on.
        let room = ButtonScene.Room(left: max(0, min(grow, rect.x0)), top: grow, right: grow, bottom: grow)
        if button.room != room {
            button.room = room
            button.laidOutFor = nil
            page.layers[index] = button
        }
        return ClipRect(x0: rect.x0 - room.left, y0: rect.y0 - grow, x1: rect.x1 + grow, y1: rect.y1 + grow)
    }

    /// Tells a scroll follower its new top, only when it moved (a scene's existential box is
    /// rewritten only then, not every frame).
    private mutating func tellPlace(_ rect: ClipRect, to index: Int, of page: inout ScenePage) {
        if toldTops.count != page.layers.count { toldTops = [Int?](repeating: nil, count: page.layers.count) }
        guard toldTops[index] != rect.y0, var follower = page.layers[index] as? any ScrollFollower & Scene else {
            return
        }
        follower.follow(screenTop: Double(rect.y0))
        page.layers[index] = follower
        toldTops[index] = rect.y0
    }
}
