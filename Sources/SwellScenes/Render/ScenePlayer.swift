import SwellRaster

/// Plays a stack of scenes onto a surface: input goes to every layer, and a frame is the layers'
/// ops, bottom to top over one background, collected into one display list that SwellRaster's
/// `FrameRenderer` renders in bands (on `threads` threads; the output is the same for any
/// thread count). The player composites nothing itself.
///
/// It is the facade of four parts, each doing one job: the shown page (`ScenePage`: its layers,
/// frames, background, height and scroll), the other pages of its graph (`PageBook`) and the wipe
/// between two (`PageWipe`), where the elements lie and drawing them there (`ElementPlacement`),
/// and where a touch goes (`TouchDispatch`). Placed elements (a layer with a `Placement` frame)
/// render at their frame's size, their ops placed on the screen; a touch that begins on a button
/// goes to the topmost such button only, and its end inside the button runs the button's action
/// on its target.
///
/// Damage: the renderer compares each frame's ops with the previous frame's into the same
/// surface and draws only the rectangles that can differ; `render(at:into:)` returns them, for a
/// presenter to copy only those. A frame with nothing changed draws nothing. Reuses its op list,
/// so after the first frame of a given size it allocates nothing itself (scenes that rebuild
/// paths keep their own storage).
public final class ScenePlayer {
    /// The shown page.
    var page: ScenePage
    private var book = PageBook()
    private var placement = ElementPlacement()
    private var touches = TouchDispatch()
    private var wipe = PageWipe()
    private var list: DisplayList
    private let renderer: FrameRenderer
    /// The time of the frame drawn last: scenes only move forward from it.
    private var lastRender: Double?
    /// Whether frames draw only what changed (false: every frame is drawn whole).
    public var tracksDamage = true
    /// A playlist's items and their changes (`loadPlaylist`; nil: a page or page graph). Its one
    /// layer is the playlist's `PlaylistScene`.
    var playlist: PlaylistEngine?

    /// A layer's id and frame in a page (nil frame: the whole screen).
    public struct Placement {
        public var id: String?
        public var frame: ElementFrame?

        public init(id: String? = nil, frame: ElementFrame? = nil) {
            self.id = id
            self.frame = frame
        }
    }

    public var layers: [any Scene] { page.layers }
    public var background: Color { page.background }
    public var placements: [Placement] { page.placements }
    /// The page's height when it is taller than the screen and scrolls (nil: the screen's).
    /// Placed elements' frames are in page coordinates and move with the scroll; elements
    /// without a frame stay on the screen (a background).
    public var pageHeight: Int? {
        get { page.height }
        set { page.height = newValue }
    }
    public var scroll: PageScroll { page.scroll }
    /// The name of the page shown (`attach(pages:shown:)`; empty for a single page).
    public var pageName: String { book.shownName }
    /// The page switch's wave wipe: the slideshow tutorial's rising wave (amplitude 36 px,
    /// wavelength 314 px), easeOut over 1 s (a page change should feel quicker than a photo's 3 s).
    public static let pageTransition = 1.0
    /// On a scrolling page a finger that moves this far (px) from where it went down is a drag
    /// that scrolls, not a tap: its button runs no action, as a scroll view cancels the touch
    /// of the control under it (UIScrollView's slop is about 10 points).
    public static let tapSlop = 10.0

    /// The screen's size: set by each frame, or before the first for touches that come first
    /// (touches are placed against it).
    public var screen: FrameSize {
        get { placement.screen }
        set { placement.screen = newValue }
    }
    /// A video wall's tile: the scene is laid out for the canvas (`screen` is the canvas's size)
    /// and each frame is the viewport's rectangle of it, the tile's size (nil: the surface is
    /// the whole screen). Touches are in canvas coordinates.
    public var viewport: Viewport?
    /// The folder the files it shows were loaded from (`loadPageGraph`): a followed text file
    /// that has since become a link to outside it is not taken up (`takeUp(changedTextFiles:)`).
    public var contentRoot: ContentRoot?
    /// The screen a frame drawn into `surface` is laid out for: the canvas of a viewport, else
    /// the surface's size.
    public func screenSize(for surface: PixelSurface) -> FrameSize {
        guard let viewport else { return FrameSize(width: surface.width, height: surface.height) }
        return FrameSize(width: viewport.canvasWidth, height: viewport.canvasHeight)
    }

    /// `threads` > 1 renders frames in bands on that many threads.
    public init(layers: [any Scene], background: Color? = nil, threads: Int = 1, placements: [Placement] = []) {
        precondition(!layers.isEmpty, "a player needs at least one scene")
        page = ScenePage(layers: layers, placements: placements, background: background ?? layers[0].background)
        list = DisplayList(width: 1, height: 1, background: page.background)
        renderer = FrameRenderer(threads: threads)
        // Room for a full ripple pond (1000 rings) and an overlay, so the list does not grow mid-show.
        list.commands.reserveCapacity(1024)
    }

    /// The threads the renderer cuts its bands for (`FrameRenderer.bandThreads`; measuring only).
    public var bandThreads: Int {
        get { renderer.bandThreads }
        set { renderer.bandThreads = newValue }
    }

    /// Whether `render(at:into:)` wakes the renderer's helper threads before the scenes build
    /// the frame (`FrameRenderer.prepare()`), rather than only when the list is rendered
    /// (measuring only: `swell bench --late-wake`).
    public var wakesHelpersEarly = true

    /// `FrameRenderer.tuning.pinsHelpers` (measuring only; before the first frame).
    public var pinsHelpers: Bool {
        get { renderer.tuning.pinsHelpers }
        set { renderer.tuning.pinsHelpers = newValue }
    }

    /// `FrameRenderer.helperWakeups` (measuring only).
    public var helperWakeups: Int { renderer.helperWakeups }

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

    /// The pixels of layer `index` on the last frame's screen.
    public func frameRect(of index: Int) -> ClipRect { placement.rect(of: index, in: page) }

    public func handle(_ event: TouchEvent) {
        placement.scroll(&page, with: event)
        guard let button = touches.dispatch(event, to: &page, placement: placement),
            let action = (page.layers[button] as? ButtonScene)?.action, action.kind != "none"
        else { return }
        if action.kind == "page" {
            book.request(action.target, at: event.time)
        } else {
            page.perform(action, at: event.time)
        }
    }

    public func isIdle(at time: Double) -> Bool {
        if book.pending != nil || !wipe.isIdle(at: time) { return false }
        if page.height != nil && !page.scroll.isIdle(at: time) { return false }
        return page.layers.allSatisfy { $0.isIdle(at: time) }
    }

    /// Makes `pages` (players of the other pages, by the names page actions use) reachable from
    /// this one, whose own name is `shown`. Their state moves here; they are not used again.
    public func attach(pages: [String: ScenePlayer], shown: String) {
        book.attach(pages.mapValues(\.page), shown: shown)
    }

    /// Shows the page a tap asked for: the current one is drawn once into the wipe's picture (as
    /// it was at the tap) and put back in the book, and the new one takes its place, its wipe
    /// dated from the tap.
    private func switchPage(at time: Double) {
        guard let (name, tapTime) = book.takeRequest() else { return }
        // The old page as it was at the tap (not before the last frame drawn).
        let then = min(time, max(tapTime, lastRender ?? tapTime))
        list.commands.removeAll(keepingCapacity: true)
        renderLayers(at: then)
        wipe.freeze(list, size: placement.screen, at: then)
        list.commands.removeAll(keepingCapacity: true)
        show(page: name)
    }

    /// Shows page `name` of the graph at once, without a transition: a reloaded page graph
    /// going back to the page that was on screen. False if the graph has no such page.
    @discardableResult
    public func show(page name: String) -> Bool {
        guard name != pageName else { return true }
        guard let next = book.swap(page, for: name) else { return false }
        page = next
        placement.reset()
        touches.reset()
        renderer.invalidate()
        return true
    }

    /// The other pages' names and layers, for `textFiles` and `pageFiles`.
    var bookedPages: [(name: String, layers: [any Scene])] { book.pages.map { ($0.key, $0.value.layers) } }

    /// Shows `text` (a text file's checked contents) on every text element, of any page, whose
    /// `file` is `path`. The next frame lays it out; its damage is the elements' old and new text.
    public func showFileText(_ path: String, _ text: String) {
        changeTexts { scene in
            guard scene.file == path else { return false }
            scene.show(fileText: text)
            return true
        }
    }

    /// The earliest time a layer's timer moves it again (nil: only input moves the layers).
    public func nextWake(after time: Double) -> Double? {
        page.layers.reduce(nil) { earliest, layer in
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
        // The renderer's sleeping helpers wake while the scenes build the list (the kiosk loop
        // and the bench both come through here as a frame's content update begins).
        if wakesHelpersEarly { renderer.prepare() }
        buildFrame(at: time, size: screenSize(for: surface))
        let damage: Damage
        if let viewport, !viewport.isWholeCanvas {
            damage = renderer.render(list, into: surface, viewport: viewport.rect, tracksDamage: tracksDamage)
        } else {
            damage = renderer.render(list, into: surface, tracksDamage: tracksDamage)
        }
        // Release the references the ops hold (paths, images) so scenes can mutate their
        // storage in place next frame instead of copying it.
        list.commands.removeAll(keepingCapacity: true)
        return damage
    }

    /// The frame at `time`, `size` big, in `list`: the page's ops (a page switched to first,
    /// the scroll moved) and the wipe over them.
    private func buildFrame(at time: Double, size: FrameSize) {
        list.width = size.width
        list.height = size.height
        placement.screen = size
        switchPage(at: time)
        placement.scroll(page, at: time)
        list.commands.removeAll(keepingCapacity: true)
        renderLayers(at: time)
        list.background = playlist?.background ?? page.background
        wipe.append(at: time, size: size, into: &list.commands)
        lastRender = time
    }

    /// Appends the frame at `time`, `size` big, to `commands` (a playlist's item drawn into
    /// the playlist's frame, or frozen for its transition); the colour under it is `background`.
    func appendFrame(at time: Double, size: FrameSize, into commands: inout [FrameCommand]) {
        buildFrame(at: time, size: size)
        commands.append(contentsOf: list.commands)
        list.commands.removeAll(keepingCapacity: true)
    }

    /// Appends every layer of the shown page at `time`, each placed on the screen.
    private func renderLayers(at time: Double) {
        for index in page.layers.indices {
            page.feedLiveValue(to: index)
            placement.render(index, of: &page, at: time, into: &list.commands)
        }
    }

    /// Waits for every layer's work on other threads (pictures decoded ahead), of every page.
    public func finishBackgroundWork() {
        for layer in page.layers { layer.finishBackgroundWork() }
        for other in book.pages.values { for layer in other.layers { layer.finishBackgroundWork() } }
    }

    /// Whether any layer of any page has work on other threads not yet done (pictures being
    /// decoded ahead, a playlist's next item being prepared).
    public var hasBackgroundWork: Bool {
        page.layers.contains { $0.hasBackgroundWork }
            || book.pages.values.contains { $0.layers.contains { $0.hasBackgroundWork } }
    }

    /// Makes every text element read `clock` (a fixed one for deterministic dumps and tests).
    /// Every page's, so the other pages of a dump show the same fixed time.
    public func use(_ clock: WallClock) {
        if let playlist {
            playlist.use(clock)
            return
        }
        changeTexts { text in
            text.wallClock = clock
            return true
        }
    }

    /// Applies `change` to every text element of every page, the shown one and the others.
    func changeTexts(_ change: (inout TextScene) -> Bool) {
        page.changeTexts(change)
        book.changePages { $0.changeTexts(change) }
        playlist?.current.changeTexts(change)
    }

    /// Makes the next frame draw every pixel: for a surface whose contents were lost or written
    /// by someone else (a presenter's new back buffer). A new or resized surface is noticed on
    /// its own.
    public func redrawAll() { renderer.invalidate() }
}
