import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem

/// A scene as the kiosk loop's content. The loop's clock is the only one: the scene's time is
/// the loop's time less the moment the scene started, which a changed scene file moves to when
/// the new scene was taken up (it starts afresh). A changed text file only changes the text of
/// the elements showing it (the scene goes on).
public final class SceneContent: KioskContent {
    /// The player and the touches replayed in real time into it (`--input`, in the scene's time).
    private var playback: ScriptedPlayback
    private var player: ScenePlayer { playback.player }
    /// Loads the player of a scene file or built-in scene name.
    private let load: (String) throws -> ScenePlayer
    /// The scene shown: a file, or a built-in scene's name.
    public private(set) var name: String
    /// What follows the scene's files (nil: not followed); a reloaded scene may name others.
    public let watch: FileWatch?
    /// Files followed beside the scene's own (the kiosk file), and who takes their changes.
    private let otherFiles: [String]
    private let otherFilesChanged: ([String], Double) -> Void
    private let onShown: () -> Void
    /// Where its lines go (the journal: standard error and systemd's status).
    private let journal: (String) -> Void
    /// The loop time at which the scene started.
    private var sceneStart = 0.0
    /// A scene shown in place of another and not drawn yet: not idle until it is, whichever
    /// output's event brought it (a kiosk file's change reaches the first output's round).
    private var undrawn = false
    public private(set) var frames = 0
    /// A video wall's tile of the canvas (nil: the display is the whole screen).
    private let viewport: Viewport?
    /// The scene time from CLOCK_REALTIME (read by the function given), and the loop time and
    /// scene time it last gave (the loop passes one time per round).
    private var realtime: (clock: RealtimeSceneClock, read: () -> Double)?
    private var mapped = (loop: -Double.infinity, scene: 0.0)

    /// - Parameters:
    ///   - name: the scene file or built-in scene `player` was loaded from; `load(name)` loads
    ///     it again when it changes.
    ///   - otherFiles: followed too; their changes go to `otherFilesChanged` with the loop time.
    ///   - shown: called once the first frame is on screen.
    public init(
        player: ScenePlayer, name: String, script: TouchScript = TouchScript(events: []),
        load: @escaping (String) throws -> ScenePlayer, watch: FileWatch? = nil, otherFiles: [String] = [],
        otherFilesChanged: @escaping ([String], Double) -> Void = { _, _ in }, shown: @escaping () -> Void = {},
        viewport: Viewport? = nil, realtime: (RealtimeSceneClock, () -> Double)? = nil,
        journal: @escaping (String) -> Void = kioskWarn
    ) {
        self.journal = journal
        playback = ScriptedPlayback(player: player, script: script)
        self.name = name
        self.load = load
        self.watch = watch
        self.otherFiles = otherFiles
        self.otherFilesChanged = otherFilesChanged
        onShown = shown
        self.viewport = viewport
        self.realtime = realtime.map { (clock: $0.0, read: $0.1) }
        player.viewport = viewport
    }

    /// The files a kiosk showing `player`, loaded from the scene file `name`, follows: that file,
    /// the other pages of its page graph and every text file their text elements show; for a
    /// playlist, its item files too (pages, their text files, pictures, videos: a changed one is
    /// taken up at its item's next turn, so only the playlist file itself reloads the scene).
    /// None for a built-in scene's name.
    public static func files(of player: ScenePlayer, _ name: String) -> [String] {
        guard builtInScene(named: name) == nil else { return [] }
        var files = [name] + player.pageFiles
        for file in player.textFiles + player.itemFiles where !files.contains(file) { files.append(file) }
        return files
    }

    /// What this content follows now.
    public var followedFiles: [String] { otherFiles + Self.files(of: player, name) }

    /// The scene's time at loop time `time`: since the scene started, or from the realtime
    /// clock. A realtime scene time that goes back (the period wrapped, or the clock stepped
    /// back by more than `RealtimeSceneClock.largestHeldStep`) starts the scene afresh, as a
    /// box started then would show it.
    private func sceneTime(_ time: Double) -> Double {
        guard var realtime else { return time - sceneStart }
        if time == mapped.loop { return mapped.scene }
        let scene = realtime.clock.sceneTime(realtime: realtime.read(), monotonic: time)
        self.realtime = realtime
        if scene < mapped.scene || mapped.loop == -Double.infinity { restart(realtime.clock) }
        mapped = (time, scene)
        return scene
    }

    private func restart(_ clock: RealtimeSceneClock) {
        if mapped.loop != -Double.infinity, let fresh = try? load(name) { replace(fresh) }
        // A text element's clock reads the Unix time the scene stands for.
        player.use(WallClock(epochAtZero: clock.cycleStart(at: clock.unwrappedTime), fixedOffset: nil))
    }

    /// Shows `fresh` from now on; a touch script already under way is not replayed into it.
    private func replace(_ fresh: ScenePlayer) {
        playback = ScriptedPlayback(player: fresh, script: TouchScript(events: []))
        player.viewport = viewport
    }

    public func render(at time: Double, into surface: PixelSurface) -> Damage {
        // The player's damage: a newly loaded scene's player (or a new surface) draws whole.
        let damage = playback.render(at: sceneTime(time), into: surface)
        frames += 1
        undrawn = false
        return damage
    }

    public func handle(_ touch: SwellInput.TouchEvent, at time: Double) {
        // On a wall's tile the touch lands on the canvas where the tile shows it.
        var event = sceneTouch(touch, at: sceneTime(time))
        event.x += Double(viewport?.rect.x0 ?? 0)
        event.y += Double(viewport?.rect.y0 ?? 0)
        player.handle(event)
    }

    public func isIdle(at time: Double) -> Bool {
        // A pending scripted touch keeps the loop drawing until it has been delivered.
        !undrawn && playback.isFinished && player.isIdle(at: sceneTime(time))
    }

    public func nextWake(after time: Double) -> Double? {
        let scene = sceneTime(time)
        return player.nextWake(after: scene).map { $0 - scene + time }
    }

    /// A changed page file reloads the page graph (all its pages checked again) on the same
    /// display and console: no modeset, no flash of the console as a restart gives. The page
    /// that was shown stays shown. A changed text file changes only its elements' text.
    public func filesChanged(_ paths: [String], at time: Double) {
        let others = paths.filter(otherFiles.contains)
        if !others.isEmpty { otherFilesChanged(others, time) }
        let pages = [name] + player.pageFiles
        guard let changed = paths.first(where: pages.contains) else {
            let texts = paths.filter { !otherFiles.contains($0) }
            guard !texts.isEmpty else { return }
            for line in player.takeUp(changedTextFiles: texts, read: { try readWholeFile($0) }) { journal(line) }
            return
        }
        do {
            try show(name, at: time, keepingPage: true)
            journal("\(changed) changed: running the new scene")
        } catch {
            journal("\(changed) changed but was not loaded (the previous scene goes on): \(error)")
        }
    }

    /// Shows the scene file (or built-in scene) `file` from loop time `time`, in place of the
    /// one shown; throws, and goes on as before, when it does not load. With `keepingPage`, the
    /// page shown stays shown (a changed file of the same page graph). With `startedAt`, the
    /// scene's time 0 is that earlier moment (loop time, and the Unix time its text clocks read
    /// then): a schedule's content taken up mid-window shows what it would had it run since the
    /// window opened.
    public func show(
        _ file: String, at time: Double, keepingPage: Bool = false, startedAt: (loop: Double, unix: Double)? = nil
    ) throws {
        let shownPage = player.pageName
        let fresh = try load(file)
        name = file
        replace(fresh)
        if keepingPage { player.show(page: shownPage) }
        if let realtime {
            player.use(
                WallClock(epochAtZero: realtime.clock.cycleStart(at: realtime.clock.unwrappedTime), fixedOffset: nil))
            sceneStart = time
        } else if let startedAt {
            dateScene(from: startedAt.loop, unix: startedAt.unix)
        } else {
            sceneStart = time
        }
        undrawn = true
        watch?.follow(followedFiles)
    }

    /// The scene's time 0 is loop time `loop`, when the wall clock read `unix` (its text clocks
    /// read it from there). Not with a realtime clock, whose time is the wall's own.
    public func dateScene(from loop: Double, unix: Double) {
        guard realtime == nil else { return }
        sceneStart = loop
        player.use(WallClock(epochAtZero: unix, fixedOffset: nil))
    }

    public func shown() { onShown() }
}

/// The kiosk's touch event (screen pixels, a finger id) as the scene's (with the time it arrived).
public func sceneTouch(_ event: SwellInput.TouchEvent, at time: Double) -> SwellScenes.TouchEvent {
    let phase: SwellScenes.TouchEvent.Phase
    switch event.phase {
    case .began: phase = .began
    case .moved: phase = .moved
    case .ended: phase = .ended
    }
    return SwellScenes.TouchEvent(phase, finger: event.id, x: event.x, y: event.y, time: time)
}
