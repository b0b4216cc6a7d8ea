import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// Plays a stack of scenes onto a surface: input goes to every layer, and a frame is the layers'
/// ops, bottom to top over one background, collected into one display list that SwellRaster's
/// `FrameRenderer` renders in bands (on `threads` threads; the output is the same for any
/// thread count). The player composites nothing itself.
///
/// Placed elements (a layer with a `Placement` frame) render at their frame's size; their draw
/// commands get the frame's origin and a clip to the frame (grown by a button's bounce), so
/// placement is part of the one display list. Touches reach an element in its own coordinates;
/// a touch that begins on a button goes to the topmost such button only (not to what is under
/// it), and its end inside the button runs the button's action on its target.
///
/// Damage: the renderer compares each frame's ops with the previous frame's into the same
/// surface and draws only the rectangles that can differ; `render(at:into:)` returns them, for a
/// presenter to copy only those. A frame with nothing changed draws nothing. Reuses its op list,
/// so after the first frame of a given size it allocates nothing itself (scenes that rebuild
/// paths keep their own storage).
public final class ScenePlayer {
    public private(set) var layers: [any Scene]
    public private(set) var background: Color
    private var list: DisplayList
    private let renderer: FrameRenderer
    /// Whether frames draw only what changed (false: every frame is drawn whole).
    public var tracksDamage = true

    /// A layer's id and frame in a page (nil frame: the whole screen).
    public struct Placement {
        public var id: String?
        public var frame: ElementFrame?

        public init(id: String? = nil, frame: ElementFrame? = nil) {
            self.id = id
            self.frame = frame
        }
    }

    public private(set) var placements: [Placement]
    /// The page's height when it is taller than the screen and scrolls (nil: the screen's).
    /// Placed elements' frames are in page coordinates and move with the scroll; elements
    /// without a frame stay on the screen (a background).
    public var pageHeight: Int?
    public private(set) var scroll = PageScroll()
    /// The scroll offset of the frame being drawn (whole pixels, so elements stay on the grid).
    private var shownOffset = 0
    /// The tops last told to scroll followers, per layer.
    private var toldTops: [Int?] = []
    /// Per layer, the layer whose live value it shows (a text element's `countOf`), found once
    /// per page so a frame neither casts nor searches ids.
    private var liveSources: [Int?] = []
    /// The other pages a `page` action can show, by file name, as they were last left, and the
    /// name of the page shown (`attach(pages:shown:)`; empty for a single page).
    private var book: [String: Page] = [:]
    public private(set) var pageName = ""
    /// The page a tap left, frozen as it was then, wiped away over the new one from the top
    /// (`pageTransition` seconds from `switchStart`).
    private var outgoing: PixelBuffer?
    private var snapshotRenderer = FrameRenderer()
    private var switchStart: Double?
    /// The time of the frame drawn last: scenes only move forward from it.
    private var lastRender: Double?
    /// The page a tap asked for and the tap's time: the switch is made at the next frame but
    /// dated from the tap, so a frame does not depend on when the frames before it were drawn.
    private var pendingPage: (name: String, time: Double)?
    private var wipe = Path()
    /// The page switch's wave wipe: the slideshow tutorial's rising wave (amplitude 36 px,
    /// wavelength 314 px), easeOut over 1 s (a page change should feel quicker than a photo's 3 s).
    public static let pageTransition = 1.0

    private struct Page {
        var layers: [any Scene]
        var placements: [Placement]
        var background: Color
        /// Each page scrolls (or not) by its own height, and keeps its scroll while away.
        var height: Int?
        var scroll: PageScroll
    }
    /// The screen's size: set by each frame, or before the first for touches that come first
    /// (touches are placed against it).
    public var screen = FrameSize(width: 1, height: 1)
    /// A video wall's tile: the scene is laid out for the canvas (`screen` is the canvas's size)
    /// and each frame is the viewport's rectangle of it, the tile's size (nil: the surface is
    /// the whole screen). Touches are in canvas coordinates.
    public var viewport: Viewport?
    /// The screen a frame drawn into `surface` is laid out for: the canvas of a viewport, else
    /// the surface's size.
    public func screenSize(for surface: PixelSurface) -> FrameSize {
        guard let viewport else { return FrameSize(width: surface.width, height: surface.height) }
        return FrameSize(width: viewport.canvasWidth, height: viewport.canvasHeight)
    }
    /// Fingers whose touch began on a button: the button's layer index.
    private var pressed: [Int: Press] = [:]

    private struct Press {
        var button: Int
        var x: Double
        var y: Double
        /// Moved farther than `tapSlop` from where it went down, on a scrolling page.
        var dragged = false
    }

    /// On a scrolling page a finger that moves this far (px) from where it went down is a drag
    /// that scrolls, not a tap: its button runs no action, as a scroll view cancels the touch
    /// of the control under it (UIScrollView's slop is about 10 points).
    public static let tapSlop = 10.0

    /// `threads` > 1 renders frames in bands on that many threads.
    public init(layers: [any Scene], background: Color? = nil, threads: Int = 1, placements: [Placement] = []) {
        precondition(!layers.isEmpty, "a player needs at least one scene")
        self.layers = layers
        self.placements = layers.indices.map { $0 < placements.count ? placements[$0] : Placement() }
        self.background = background ?? layers[0].background
        list = DisplayList(width: 1, height: 1, background: self.background)
        renderer = FrameRenderer(threads: threads)
        // Room for a full ripple pond (1000 rings) and an overlay, so the list does not grow mid-show.
        list.commands.reserveCapacity(1024)
        liveSources = Self.liveSources(layers, self.placements)
    }

    /// The threads the renderer cuts its bands for (`FrameRenderer.bandThreads`; measuring only).
    public var bandThreads: Int {
        get { renderer.bandThreads }
        set { renderer.bandThreads = newValue }
    }

    /// `FrameRenderer.stripCut` (measuring only).
    public var stripCut: FrameRenderer.StripCut {
        get { renderer.stripCut }
        set { renderer.stripCut = newValue }
    }

    /// `FrameRenderer.stripColumns` (measuring only).
    public var stripColumns: Int? {
        get { renderer.stripColumns }
        set { renderer.stripColumns = newValue }
    }

    /// `FrameRenderer.sharesStrokeColumns` (measuring only).
    public var sharesStrokeColumns: Bool {
        get { renderer.sharesStrokeColumns }
        set { renderer.sharesStrokeColumns = newValue }
    }

    /// For each layer, the index of the element its `countOf` names (nil: none).
    private static func liveSources(_ layers: [any Scene], _ placements: [Placement]) -> [Int?] {
        layers.map { layer in
            guard let text = layer as? TextScene, !text.countOf.isEmpty else { return nil }
            return placements.firstIndex { $0.id == text.countOf }
        }
    }

    /// The pixels of layer `index` on the last frame's screen.
    public func frameRect(of index: Int) -> ClipRect {
        guard let frame = placements[index].frame else {
            return ElementFrame.fullScreen.rect(width: screen.width, height: screen.height)
        }
        return frame.rect(width: screen.width, height: pageHeight ?? screen.height).offsetBy(0, -shownOffset)
    }

    public func handle(_ event: TouchEvent) {
        // A scrolling page follows every finger, on buttons too (as a scroll view does).
        if pageHeight != nil { scrollPage(with: event) }
        if event.phase == .began, let button = topmostButton(at: event) {
            pressed[event.finger] = Press(button: button, x: event.x, y: event.y)
        }
        if var press = pressed[event.finger] {
            let button = press.button
            layers[button].handle(placed(event, in: frameRect(of: button)))
            if pageHeight != nil && hypot(event.x - press.x, event.y - press.y) > Self.tapSlop { press.dragged = true }
            pressed[event.finger] = event.phase == .ended ? nil : press
            if event.phase == .ended && !press.dragged && contains(frameRect(of: button), event) {
                runAction(of: button, at: event.time)
            }
            return
        }
        for index in layers.indices {
            let rect = frameRect(of: index)
            if event.phase == .began && !contains(rect, event) { continue }
            layers[index].handle(placed(event, in: rect))
        }
    }

    /// The largest scroll offset on the last frame's screen.
    private var scrollLimit: Double { Double((pageHeight ?? screen.height) - screen.height) }

    private func scrollPage(with event: TouchEvent) {
        scroll.handle(event, limit: scrollLimit)
        shownOffset = Int(scroll.offset(at: event.time, limit: scrollLimit).rounded())
    }

    private func topmostButton(at event: TouchEvent) -> Int? {
        layers.indices.reversed().first { layers[$0] is ButtonScene && contains(frameRect(of: $0), event) }
    }

    private func contains(_ rect: ClipRect, _ event: TouchEvent) -> Bool {
        event.x >= Double(rect.x0) && event.x < Double(rect.x1) && event.y >= Double(rect.y0)
            && event.y < Double(rect.y1)
    }

    private func placed(_ event: TouchEvent, in rect: ClipRect) -> TouchEvent {
        var moved = event
        moved.x -= Double(rect.x0)
        moved.y -= Double(rect.y0)
        return moved
    }

    private func runAction(of button: Int, at time: Double) {
        guard let action = (layers[button] as? ButtonScene)?.action, action.kind != "none" else { return }
        if action.kind == "page" {
            let name = resolvePage(action.target, from: pageName)
            if book[name] != nil { pendingPage = (name, time) }
            return
        }
        guard let target = placements.firstIndex(where: { $0.id == action.target }),
            var scene = layers[target] as? any ActionTarget & Scene
        else { return }
        if scene.perform(action.kind, at: time) { layers[target] = scene }
    }

    public func isIdle(at time: Double) -> Bool {
        if pendingPage != nil { return false }
        if let start = switchStart, time < start + Self.pageTransition { return false }
        if pageHeight != nil && !scroll.isIdle(at: time) { return false }
        return layers.allSatisfy { $0.isIdle(at: time) }
    }

    /// Makes `pages` (players of the other pages, by the names page actions use) reachable from
    /// this one, whose own name is `shown`. Their state moves here; they are not used again.
    public func attach(pages: [String: ScenePlayer], shown: String) {
        for (name, player) in pages where name != shown {
            book[name] = Page(
                layers: player.layers, placements: player.placements, background: player.background,
                height: player.pageHeight, scroll: player.scroll)
        }
        pageName = shown
    }

    /// Shows the page a tap asked for: the current one is drawn once into `outgoing` (as it was
    /// at the tap) and put back in the book, and the new one takes its place, its wipe dated
    /// from the tap.
    private func switchPage(at time: Double, screen size: FrameSize) {
        guard let (name, tapTime) = pendingPage, let next = book[name] else { return }
        pendingPage = nil
        // The old page as it was at the tap (not before the last frame drawn).
        let then = min(time, max(tapTime, lastRender ?? tapTime))
        if outgoing?.surface.width != size.width || outgoing?.surface.height != size.height {
            outgoing = PixelBuffer(width: size.width, height: size.height)
        }
        list.commands.removeAll(keepingCapacity: true)
        for index in layers.indices { renderLayer(index, at: then, screen: size) }
        if let outgoing { snapshotRenderer.render(list, into: outgoing.surface, tracksDamage: false) }
        list.commands.removeAll(keepingCapacity: true)
        swapIn(next, named: name)
        switchStart = then
    }

    /// Puts the shown page back in the book and shows `next`, the book's page `name`.
    private func swapIn(_ next: Page, named name: String) {
        book[pageName] = Page(
            layers: layers, placements: placements, background: background, height: pageHeight, scroll: scroll)
        book[name] = nil
        (layers, placements, background, pageName) = (next.layers, next.placements, next.background, name)
        (pageHeight, scroll) = (next.height, next.scroll)
        shownOffset = 0
        pressed = [:]
        toldTops = []
        liveSources = Self.liveSources(layers, placements)
        renderer.invalidate()
    }

    /// Shows page `name` of the graph at once, without a transition: a reloaded page graph
    /// going back to the page that was on screen. False if the graph has no such page.
    @discardableResult
    public func show(page name: String) -> Bool {
        guard name != pageName else { return true }
        guard let next = book[name] else { return false }
        swapIn(next, named: name)
        return true
    }

    /// The other pages' names and layers, for `textFiles` and `pageFiles`.
    var bookedPages: [(name: String, layers: [any Scene])] { book.map { ($0.key, $0.value.layers) } }

    /// Shows `text` (a text file's checked contents) on every text element, of any page, whose
    /// `file` is `path`. The next frame lays it out; its damage is the elements' old and new text.
    public func showFileText(_ path: String, _ text: String) {
        changeTexts { scene in
            guard scene.file == path else { return false }
            scene.show(fileText: text)
            return true
        }
    }

    /// The old page over the new one, above the tutorial's rising wave edge.
    private func appendWipe(at time: Double, size: FrameSize) {
        guard let start = switchStart, let outgoing else { return }
        let pct = TimingCurve.easeOut.value(at: (time - start) / Self.pageTransition)
        guard pct < 1 else {
            switchStart = nil
            return
        }
        let width = Double(size.width)
        let amplitude = 36.0
        let mean = (1 - pct) * (Double(size.height) + 2 * amplitude) - amplitude
        let steps = max(1, size.width / 2)
        wipe.removeAll()
        wipe.move(to: 0, 0)
        for i in 0...steps {
            let x = width * Double(i) / Double(steps)
            wipe.line(to: x, mean + amplitude * sin(2 * Double.pi * x / 314 + pct * 4 * Double.pi))
        }
        wipe.line(to: width, 0)
        wipe.close()
        list.commands.append(.maskedImage(outgoing, wipe))
    }

    /// The earliest time a layer's timer moves it again (nil: only input moves the layers).
    public func nextWake(after time: Double) -> Double? {
        layers.reduce(nil) { earliest, layer in
            guard let wake = layer.nextWake(after: time) else { return earliest }
            return min(earliest ?? wake, wake)
        }
    }

    /// Draws the frame at `time` into `surface` and returns the pixels that may differ from the
    /// previous frame drawn into the same surface (the whole frame for the first frame on a
    /// surface or size, after `redrawAll()`, or when `tracksDamage` is off); pixels outside it
    /// keep the previous frame's bytes. Empty: nothing changed, nothing was drawn. The damage is
    /// the renderer's storage: copy it (`Damage.formUnion`) to keep it past the next frame.
    @discardableResult
    public func render(at time: Double, into surface: PixelSurface) -> Damage {
        let size = screenSize(for: surface)
        list.width = size.width
        list.height = size.height
        screen = size
        switchPage(at: time, screen: size)
        if pageHeight != nil { shownOffset = Int(scroll.offset(at: time, limit: scrollLimit).rounded()) }
        list.commands.removeAll(keepingCapacity: true)
        list.background = background
        for index in layers.indices { renderLayer(index, at: time, screen: size) }
        appendWipe(at: time, size: size)
        let damage: Damage
        if let viewport, !viewport.isWholeCanvas {
            damage = renderer.render(list, into: surface, viewport: viewport.rect, tracksDamage: tracksDamage)
        } else {
            damage = renderer.render(list, into: surface, tracksDamage: tracksDamage)
        }
        // Release the references the ops hold (paths, images) so scenes can mutate their
        // storage in place next frame instead of copying it.
        list.commands.removeAll(keepingCapacity: true)
        lastRender = time
        return damage
    }

    /// Renders layer `index` at its frame's size and places its draw commands on the screen.
    private func renderLayer(_ index: Int, at time: Double, screen: FrameSize) {
        feedLiveCount(index)
        guard placements[index].frame != nil else {
            layers[index].render(at: time, size: screen, into: &list.commands)
            return
        }
        let rect = frameRect(of: index)
        guard !rect.isEmpty, rect.y1 > 0, rect.y0 < screen.height else { return }
        if pageHeight != nil { tellPlace(rect, to: index) }
        let visible = roomToBounce(index, frame: rect)
        let start = list.commands.count
        layers[index].render(
            at: time, size: FrameSize(width: visible.x1 - visible.x0, height: visible.y1 - visible.y0),
            into: &list.commands)
        let origin = PixelOrigin(x: visible.x0, y: visible.y0)
        for op in start..<list.commands.count { list.commands[op] = placed(list.commands[op], at: origin, in: visible) }
    }

    /// The area element `index` draws into: its frame, or a button's frame grown by the room its
    /// bulge needs. Drawing starts at the area's top-left corner (a surface placed there cannot
    /// reach up or left of it), so the button learns where its frame lies inside the area; only
    /// when that changes, as re-boxing the scene costs an allocation.
    private func roomToBounce(_ index: Int, frame rect: ClipRect) -> ClipRect {
        // Only elements that bounce (buttons, fields) are looked at as buttons.
        let grow = layers[index].overflow
        guard grow > 0, var button = layers[index] as? ButtonScene else { return rect }
        // Not left of the screen: a surface is placed only from column 0 on.
        let room = ButtonScene.Room(left: max(0, min(grow, rect.x0)), top: grow, right: grow, bottom: grow)
        if button.room != room {
            button.room = room
            button.laidOutFor = nil
            layers[index] = button
        }
        return ClipRect(x0: rect.x0 - room.left, y0: rect.y0 - grow, x1: rect.x1 + grow, y1: rect.y1 + grow)
    }

    /// An element's op moved to its frame: drawn from the frame's origin and clipped to
    /// `visible` (the frame, or a bouncing button's room).
    private func placed(_ op: FrameCommand, at origin: PixelOrigin, in visible: ClipRect) -> FrameCommand {
        let placement = OpPlacement(origin: origin, clip: visible)
        switch op {
        case .draw(var command):
            command.origin = origin
            command.clip = command.clip.map { $0.offsetBy(origin.x, origin.y).intersection(visible) } ?? visible
            return .draw(command)
        case .beginLayer: return op
        case .endLayer(let mask, _): return .endLayer(mask, at: placement)
        case .image(let image, let alpha, _): return .image(image, alpha: alpha, at: placement)
        case .maskedImage(let image, let path, _): return .maskedImage(image, path, at: placement)
        }
    }

    /// Waits for every layer's work on other threads (pictures decoded ahead), of every page.
    public func finishBackgroundWork() {
        for layer in layers { layer.finishBackgroundWork() }
        for page in book.values { for layer in page.layers { layer.finishBackgroundWork() } }
    }

    /// Makes every text element read `clock` (a fixed one for deterministic dumps and tests).
    /// Every page's, so the other pages of a dump show the same fixed time.
    public func use(_ clock: WallClock) {
        changeTexts { text in
            text.wallClock = clock
            return true
        }
    }

    /// Applies `change` to every text element of every page, the shown one and the others; an
    /// element is boxed again only when `change` says it changed it.
    private func changeTexts(_ change: (inout TextScene) -> Bool) {
        Self.changeTexts(in: &layers, change)
        for name in book.keys { Self.changeTexts(in: &book[name]!.layers, change) }
    }

    private static func changeTexts(in layers: inout [any Scene], _ change: (inout TextScene) -> Bool) {
        for index in layers.indices {
            guard var text = layers[index] as? TextScene, change(&text) else { continue }
            layers[index] = text
        }
    }

    /// Gives a text element with `countOf` the live value (ripple count) of the element it names.
    private func feedLiveCount(_ index: Int) {
        guard let source = liveSources[index], let value = layers[source].liveValue else { return }
        layers[index].show(liveValue: value)
    }

    /// Tells a scroll follower its new top, only when it moved (a scene's existential box is
    /// rewritten only then, not every frame).
    private func tellPlace(_ rect: ClipRect, to index: Int) {
        if toldTops.count != layers.count { toldTops = [Int?](repeating: nil, count: layers.count) }
        guard toldTops[index] != rect.y0, var follower = layers[index] as? any ScrollFollower & Scene else { return }
        follower.follow(screenTop: Double(rect.y0))
        layers[index] = follower
        toldTops[index] = rect.y0
    }

    /// Makes the next frame draw every pixel: for a surface whose contents were lost or written
    /// by someone else (a presenter's new back buffer). A new or resized surface is noticed on
    /// its own.
    public func redrawAll() { renderer.invalidate() }
}
