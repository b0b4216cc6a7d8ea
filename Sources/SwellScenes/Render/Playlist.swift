import Dispatch
import SwellRaster
import SwellSystem

/// What a playlist loads its items with: the caller's file reading and decoding (this module
/// reads no files). Called on the playlist's preparing thread as well as at load, never twice at
/// a time, so each must be safe to call from any thread.
public struct PlaylistLoaders: @unchecked Sendable {
    // @unchecked: the closures are called from one thread at a time (the load, then the
    // preparing queue, which is serial); the caller's closures only read files and open decoders.
    /// Reads a page file or a text file a page's text element shows.
    public var read: (String) throws -> [UInt8]
    /// Opens a video (a video item, or a page's video element).
    public var loadVideo: (SceneVideo.Request) throws -> SceneVideo
    /// A page's slideshow folder (`loadPageGraph`'s `loadImages`: the page, the folder).
    public var loadImages: (String, String) throws -> SceneImages
    /// A picture item's file: checks what it can now (the file is there and is a PNG or JPEG)
    /// and returns it as one picture, named by its path, decoded on demand.
    public var loadPicture: (String) throws -> SceneImages
    /// One line for the journal (an item skipped because it no longer loads).
    public var journal: (String) -> Void
    /// The folder every item and every file its pages name must lie in (nil: anywhere).
    public var content: ContentRoot?

    public init(
        read: @escaping (String) throws -> [UInt8],
        loadVideo: @escaping (SceneVideo.Request) throws -> SceneVideo = { _ in throw NoFileAccess() },
        loadImages: @escaping (String, String) throws -> SceneImages = { _, _ in throw NoFileAccess() },
        loadPicture: @escaping (String) throws -> SceneImages = { _ in throw NoFileAccess() },
        journal: @escaping (String) -> Void
    ) {
        self.read = read
        self.loadVideo = loadVideo
        self.loadImages = loadImages
        self.loadPicture = loadPicture
        self.journal = journal
    }
}

/// Loads a `playlist/1` file (`parsePlaylistFile`) into a player that `swell run`, `dump` and
/// `bench` drive as they drive a page. Every item is loaded once now, as its turn would load
/// it, so a missing or broken file is refused before the first frame, naming its item
/// ("$.items[2].page: …"). The first item is kept to be shown; each later turn loads its item
/// afresh, ahead of time on a thread of its own (`PlaylistEngine`).
public func loadPlaylist(
    bytes: [UInt8], name: String, threads: Int = 1, loaders: PlaylistLoaders
) throws(SceneFileError) -> ScenePlayer {
    let file = try parsePlaylistFile(bytes: bytes, name: name, content: loaders.content)
    var problems: [String] = []
    var first: ScenePlayer?
    var files: [String] = []
    for (index, item) in file.items.enumerated() {
        do {
            let player = try makePlaylistItem(item, of: file, loaders: loaders, size: nil)
            if index == 0 { first = player }
            for path in [item.content.file] + player.pageFiles + player.textFiles where !files.contains(path) {
                files.append(path)
            }
        } catch {
            problems += error.problems
        }
    }
    guard problems.isEmpty, let first else { throw SceneFileError(file: name, problems: problems) }
    let engine = PlaylistEngine(file: file, name: name, first: first, files: files, loaders: loaders)
    let player = ScenePlayer(layers: [PlaylistScene(engine: engine)], background: file.background, threads: threads)
    player.playlist = engine
    player.contentRoot = loaders.content
    return player
}

/// A player for `item` with a text service of its own (so it shares nothing mutable with the
/// item on screen, whatever thread makes it). With `size`, a picture is decoded and scaled to it
/// now (a picture that no longer decodes is refused here, not on screen).
func makePlaylistItem(
    _ item: PlaylistFile.Item, of file: PlaylistFile, loaders: PlaylistLoaders, size: FrameSize?
) throws(SceneFileError) -> ScenePlayer {
    let path = "\(item.path).\(item.content.member)"
    switch item.content {
    case .page(let page):
        let bytes: [UInt8]
        do {
            bytes = try loaders.read(page)
        } catch {
            throw SceneFileError(file: "", problems: ["\(path): \(page): cannot read: \(error)"])
        }
        do {
            return try loadPageGraph(
                bytes: bytes, name: page, content: loaders.content, read: loaders.read, loadVideo: loaders.loadVideo,
                loadImages: loaders.loadImages)
        } catch {
            throw SceneFileError(file: "", problems: error.problems.map { "\(path): \($0)" })
        }
    case .picture(let picture, let fills):
        let scene: PictureScene
        do {
            scene = PictureScene(
                images: try loaders.loadPicture(picture), fills: fills, background: file.background)
            if let size { try scene.picture.prepare(size) }
        } catch {
            throw SceneFileError(file: "", problems: ["\(path): \(error)"])
        }
        return ScenePlayer(layers: [scene], background: file.background)
    case .video(let video):
        var settings = VideoScene.descriptor.defaultSettings()
        settings.set("background", .color(file.background))
        let request = SceneVideo.Request(file: video, loops: true, fills: false, background: file.background)
        do {
            let scene = VideoScene(settings, video: try loaders.loadVideo(request))
            return ScenePlayer(layers: [scene], background: file.background)
        } catch {
            throw SceneFileError(file: "", problems: ["\(path): \"\(video)\": \(error)"])
        }
    }
}

/// A playlist as the one layer of its player: every call goes to the engine.
struct PlaylistScene: Scene {
    let engine: PlaylistEngine

    var background: Color { engine.file.background }
    mutating func handle(_ event: TouchEvent) { engine.handle(event) }
    mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        engine.render(at: time, size: size, into: &ops)
    }
    func isIdle(at time: Double) -> Bool { engine.isIdle(at: time) }
    func nextWake(after time: Double) -> Double? { engine.nextWake(after: time) }
    func finishBackgroundWork() { engine.finishBackgroundWork() }
    var hasBackgroundWork: Bool { engine.hasBackgroundWork }
}

/// A playlist playing: the item on screen (a player of its own, drawn into the playlist's
/// frame at its own time, 0 when its turn began), when it gives way, the transition under way,
/// and the next item, loaded ahead on the preparing thread (`PlaylistPreparer`).
///
/// The item shown at playlist time t is a function of t and the touches: a change happens at
/// its own time (the end of a turn, or a tap), whenever the frame that notices it is drawn; the
/// outgoing item is drawn at that time into the transition's picture, and the incoming one is
/// taken from the preparing thread, waited for if not ready yet. So a dump gives the same bytes
/// however fast the preparing thread runs.
final class PlaylistEngine {
    let file: PlaylistFile
    let name: String
    /// Every item file, each once (`ScenePlayer.itemFiles`).
    let files: [String]
    private let journal: (String) -> Void
    private let preparer: PlaylistPreparer
    /// The item on screen, its index, when its turn began and when it gives way.
    private(set) var current: ScenePlayer
    private(set) var index = 0
    private(set) var start = 0.0
    private(set) var end: Double
    /// The wall clock at playlist time 0 (`use`); each item's is moved to its own start.
    private var clock = WallClock.system()
    private var transition = PageWipe()
    private var frozen: DisplayList
    private var screen = FrameSize(width: 0, height: 0)

    init(file: PlaylistFile, name: String, first: ScenePlayer, files: [String], loaders: PlaylistLoaders) {
        self.file = file
        self.name = name
        self.files = files
        journal = loaders.journal
        preparer = PlaylistPreparer(file: file, loaders: loaders)
        current = first
        end = file.items[0].duration
        frozen = DisplayList(width: 1, height: 1, background: file.background)
        frozen.commands.reserveCapacity(1024)
        current.use(clock)
    }

    /// The colour under the item shown.
    var background: Color { current.background }

    func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        if size != screen {
            screen = size
            // Prepared at another size (or none yet): prepared again for this one.
            preparer.drop()
        }
        advance(to: time)
        if !preparer.asked { preparer.ask(after: index, size: screen, clock: shifted(end)) }
        current.appendFrame(at: time - start, size: size, into: &ops)
        transition.append(at: time, size: size, into: &ops)
    }

    func handle(_ event: TouchEvent) {
        advance(to: event.time)
        var local = event
        local.time -= start
        current.handle(local)
        guard event.phase == .began else { return }
        switch file.tap {
        case .none: break
        case .next: end = event.time
        case .pause(let seconds): end = max(end, event.time + seconds)
        }
    }

    /// Makes every change due by `time`, each at its own time.
    private func advance(to time: Double) {
        passOver(to: time)
        while time >= end { change(at: end) }
    }

    /// Passes over the turns that begin and end unseen before `time` by arithmetic, instead of
    /// loading each item in turn: a kiosk taking a playlist up hours into a schedule's window
    /// (dated from the window's start), or a dump an hour apart, would otherwise load hundreds of
    /// items, seconds on the render thread. Whole loops go first, then item by item, leaving the
    /// last two changes to be made: the second one's outgoing item (frozen for its transition)
    /// and the item shown at `time` are then the real ones, so the frame is the one a kiosk that
    /// played every turn shows, as long as every item loads (they did when the playlist loaded;
    /// one broken since is skipped at its turn by a kiosk playing through, not here).
    private func passOver(to time: Double) {
        let items = file.items
        func after(_ item: Int) -> Int { (item + 1) % items.count }
        let loop = items.reduce(0) { $0 + $1.duration }
        // Item `item`'s turn ends at `itemEnd`.
        var (item, itemEnd) = (index, end)
        if time - itemEnd > 3 * loop {
            itemEnd += ((time - itemEnd) / loop - 2).rounded(.down) * loop
        }
        while itemEnd + items[after(item)].duration + items[after(after(item))].duration <= time {
            item = after(item)
            itemEnd += items[item].duration
        }
        guard item != index || itemEnd != end else { return }
        index = item
        start = itemEnd - items[item].duration
        end = itemEnd
    }

    /// Item `index` gives way at `time` to the next one that loads (the preparing thread's,
    /// waited for); when none does, it stays for another turn.
    private func change(at time: Double) {
        let prepared = preparer.take(after: index, size: screen, clock: shifted(time))
        for line in prepared.skipped { journal("\(name): \(line)") }
        guard let next = prepared.player, let nextIndex = prepared.index else {
            end = time + file.items[index].duration
            return
        }
        let style = file.transition(after: index)
        if style.kind == .cut || style.duration <= 0 || screen.width <= 0 || screen.height <= 0 {
            transition.stop()
        } else {
            // The outgoing item as it is at the change.
            frozen.width = screen.width
            frozen.height = screen.height
            frozen.commands.removeAll(keepingCapacity: true)
            current.appendFrame(at: time - start, size: screen, into: &frozen.commands)
            frozen.background = current.background
            transition.freeze(
                frozen, size: screen, at: time, style: style.kind == .crossfade ? .crossfade : .wipe,
                duration: style.duration)
            frozen.commands.removeAll(keepingCapacity: true)
        }
        preparer.release(current)
        current = next
        index = nextIndex
        start = time
        end = time + file.items[index].duration
        let own = shifted(time)
        if prepared.clock.epochAtZero != own.epochAtZero || prepared.clock.fixedOffset != own.fixedOffset {
            current.use(own)
        }
    }

    /// The wall clock of an item whose turn begins at playlist time `time`.
    private func shifted(_ time: Double) -> WallClock {
        var moved = clock
        moved.epochAtZero += time
        return moved
    }

    func use(_ clock: WallClock) {
        self.clock = clock
        // The item prepared ahead gets its clock at its turn (`change`).
        current.use(shifted(start))
    }

    func isIdle(at time: Double) -> Bool {
        time < end && transition.isIdle(at: time) && current.isIdle(at: time - start)
    }

    func nextWake(after time: Double) -> Double? {
        var wake = end
        if let own = current.nextWake(after: time - start) { wake = min(wake, own + start) }
        if let over = transition.end, over > time { wake = min(wake, over) }
        return wake
    }

    func finishBackgroundWork() {
        current.finishBackgroundWork()
        preparer.finish()
    }

    /// The item on screen's work on other threads, or the next item still being prepared.
    var hasBackgroundWork: Bool { current.hasBackgroundWork || preparer.isPreparing }
}

/// The preparing thread: loads the item after the one on screen, as `makePlaylistItem` does
/// (a page parsed and built with its own text service, a picture decoded and scaled to the
/// screen), and draws its first frame into a scratch buffer so its fonts are opened and its
/// glyphs rasterised before its turn. An item that no longer loads (its file deleted or broken
/// since) is passed over, with one line saying why, for the one after it.
///
/// Thread safety: a prepared item is a new player with a new `SceneContext` (its own FreeType
/// library, fontconfig configuration, glyph and line caches) and its own media, so while it is
/// made the preparing thread touches nothing the render thread uses; the only thing they share
/// is the slot it is handed over in, under `lock`. After the hand-over the render thread alone
/// uses it. The loaders are called by one thread at a time (the load, then this serial queue).
final class PlaylistPreparer: @unchecked Sendable {
    // @unchecked: `slot` is read and written only under `lock`; `renderer` and `scratch` only on
    // `queue`; `asked` only on the render thread.
    struct Prepared: @unchecked Sendable {
        var index: Int?
        var player: ScenePlayer?
        var skipped: [String]
        /// The wall clock it was prepared with.
        var clock: WallClock
        /// What it was asked for: after which item, at which size.
        var after: Int
        var size: FrameSize
    }

    private let file: PlaylistFile
    private let loaders: PlaylistLoaders
    private let queue = DispatchQueue(label: "swell.playlist.prepare")
    private let lock = ConditionLock()
    private var slot: Prepared?
    private let renderer = FrameRenderer(threads: 1)
    private var scratch: PixelBuffer?
    /// An item is being prepared or waits in the slot.
    private(set) var asked = false

    init(file: PlaylistFile, loaders: PlaylistLoaders) {
        self.file = file
        self.loaders = loaders
    }

    /// Starts preparing the item after `index` for a `size` screen.
    func ask(after index: Int, size: FrameSize, clock: WallClock) {
        asked = true
        queue.async {
            let prepared = self.prepare(after: index, size: size, clock: clock)
            self.lock.withLock { self.slot = prepared }
            self.lock.broadcast()
        }
    }

    /// The item after `index`, prepared for a `size` screen: the one asked for, waited for; if it
    /// was asked for another item or size (or not at all), prepared now.
    func take(after index: Int, size: FrameSize, clock: WallClock) -> Prepared {
        if !asked { ask(after: index, size: size, clock: clock) }
        lock.wait { slot == nil }
        let prepared = lock.withLock {
            defer { slot = nil }
            return slot!
        }
        asked = false
        guard prepared.after == index, prepared.size == size else {
            return take(after: index, size: size, clock: clock)
        }
        return prepared
    }

    /// Forgets the item prepared or being prepared (the screen's size or the clock changed).
    func drop() {
        guard asked else { return }
        lock.wait { slot == nil }
        lock.withLock { slot = nil }
        asked = false
    }

    /// Waits until the item asked for is prepared.
    func finish() { queue.sync {} }

    /// An item was asked for and is not prepared yet (read on the render thread, like `asked`).
    var isPreparing: Bool { asked && lock.withLock { slot == nil } }

    /// Lets the item that gave way go on the preparing thread, not the render thread: its text
    /// service (FreeType and fontconfig torn down), its pictures, its video's decoding thread
    /// (joined). The render thread no longer uses it (its frozen picture is the transition's own).
    func release(_ player: ScenePlayer) {
        let leaving = Leaving(player: player)
        queue.async { withExtendedLifetime(leaving) {} }
    }

    private struct Leaving: @unchecked Sendable {
        // @unchecked: handed to the queue as the render thread lets go of it; only released there.
        let player: ScenePlayer
    }

    private func prepare(after index: Int, size: FrameSize, clock: WallClock) -> Prepared {
        var skipped: [String] = []
        let count = file.items.count
        for step in 1...count {
            let next = (index + step) % count
            let item = file.items[next]
            do {
                let player = try makePlaylistItem(
                    item, of: file, loaders: loaders, size: size.width > 0 && size.height > 0 ? size : nil)
                player.use(clock)
                warm(player, size: size)
                return Prepared(index: next, player: player, skipped: skipped, clock: clock, after: index, size: size)
            } catch {
                skipped.append(
                    "skipping \(item.path) (it no longer loads; the playlist goes on without it this turn): "
                        + error.problems.joined(separator: "; "))
            }
        }
        return Prepared(index: nil, player: nil, skipped: skipped, clock: clock, after: index, size: size)
    }

    /// Draws `player`'s first frame into the scratch buffer: its text laid out, its glyphs
    /// rasterised into its own cache, its pictures decoded, its first video picture waited for.
    private func warm(_ player: ScenePlayer, size: FrameSize) {
        guard size.width > 0, size.height > 0 else { return }
        if scratch?.width != size.width || scratch?.height != size.height {
            scratch = PixelBuffer(width: size.width, height: size.height)
        }
        guard let scratch else { return }
        player.screen = size
        var list = DisplayList(width: size.width, height: size.height, background: player.background)
        player.appendFrame(at: 0, size: size, into: &list.commands)
        renderer.render(list, into: scratch.surface, tracksDamage: false)
        list.commands.removeAll()
        player.finishBackgroundWork()
    }
}

/// A picture item: one picture scaled to the screen, to fill it or to fit it between bars
/// (`swell show --scale`), still until its turn ends.
struct PictureScene: Scene {
    let background: Color
    let picture: ScaledPicture

    init(images: SceneImages, fills: Bool, background: Color) {
        self.background = background
        picture = ScaledPicture(images: images, fills: fills, bars: background.opaquePixel)
    }

    mutating func handle(_ event: TouchEvent) {}

    mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        guard let frame = picture.frame(size) else { return }
        ops.append(.image(frame, alpha: 1))
    }

    func isIdle(at time: Double) -> Bool { true }
}

/// A picture decoded and scaled to a size, kept for that size.
final class ScaledPicture {
    private let images: SceneImages
    private let fills: Bool
    private let bars: UInt32
    private var scaled: PixelBuffer?
    /// The size it failed to decode at (not tried again at it).
    private var failed: FrameSize?

    init(images: SceneImages, fills: Bool, bars: UInt32) {
        self.images = images
        self.fills = fills
        self.bars = bars
    }

    /// Decodes and scales the picture to `size` now; throws why it cannot be.
    func prepare(_ size: FrameSize) throws {
        guard let name = images.names.first else { return }
        let decoded = try images.decode(name, size)
        let buffer = PixelBuffer(width: size.width, height: size.height)
        if fills {
            scaleImageToFill(decoded.surface, into: buffer.surface)
        } else {
            scaleImageToFit(decoded.surface, into: buffer.surface, background: bars)
        }
        scaled = buffer
    }

    /// The picture at `size` (nil: it does not decode).
    func frame(_ size: FrameSize) -> PixelBuffer? {
        guard size.width > 0, size.height > 0 else { return nil }
        if let scaled, scaled.width == size.width, scaled.height == size.height { return scaled }
        guard failed != size else { return nil }
        do {
            try prepare(size)
        } catch {
            failed = size
            return nil
        }
        return scaled
    }
}
