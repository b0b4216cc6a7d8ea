import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import SwellSystem

/// An output's content with what the management API shows in its place: a file shown now, for
/// some seconds or until the schedule's next change, after which the output's own content (or
/// the schedule's choice) comes back. While the API's file is shown the schedule is not asked.
public final class ManagedContent: KioskContent {
    /// The output's own content: its scene, or the schedule's choice of scenes.
    public let inner: any KioskContent
    public let scene: SceneContent
    public let scheduled: ScheduledContent?
    /// The file shown without a schedule.
    public let ownContent: String
    /// What the API shows, and until when (loop time; nil: until the schedule's next change, or
    /// for good without a schedule).
    public private(set) var override: (file: String, until: Double?)?
    private let journal: (String) -> Void
    private let prefix: String

    public init(
        _ inner: any KioskContent, scene: SceneContent, scheduled: ScheduledContent?, ownContent: String,
        prefix: String = "", journal: @escaping (String) -> Void = kioskWarn
    ) {
        self.inner = inner
        self.scene = scene
        self.scheduled = scheduled
        self.ownContent = ownContent
        self.prefix = prefix
        self.journal = journal
    }

    /// Shows `file` from loop time `time` (Unix time `wall`) for `seconds` (nil: until the
    /// schedule's next change, or until the next show without a schedule); throws when it does
    /// not load, and the output goes on as before.
    public func show(_ file: String, forSeconds seconds: Double?, at time: Double, wall: Double) throws {
        try scene.show(file, at: time)
        let change = scheduled.map { time + max(0, $0.nextChange - wall) }
        override = (file, seconds.map { time + $0 } ?? change)
    }

    /// Until when (Unix time) the API's file is shown (nil: none shown, or no end).
    public func shownUntil(at time: Double, wall: Double) -> Double? {
        override?.until.map { wall + ($0 - time) }
    }

    private func expire(at time: Double) {
        guard let until = override?.until, time >= until else { return }
        override = nil
        if let scheduled {
            scheduled.resume()
        } else {
            do {
                try scene.show(ownContent, at: time)
                journal(prefix + "shows \(ownContent) again (the API's time is over)")
            } catch {
                journal(prefix + "\(ownContent) was not loaded again (\(scene.name) goes on): \(error)")
            }
        }
    }

    /// The content drawn now: the scene alone while the API's file is shown.
    private var current: any KioskContent { override == nil ? inner : scene }

    public func render(at time: Double, into surface: PixelSurface) -> Damage {
        expire(at: time)
        return current.render(at: time, into: surface)
    }

    public func handle(_ touch: TouchEvent, at time: Double) { current.handle(touch, at: time) }

    public func isIdle(at time: Double) -> Bool {
        expire(at: time)
        return current.isIdle(at: time)
    }

    public func nextWake(after time: Double) -> Double? {
        let wake = current.nextWake(after: time)
        guard let until = override?.until else { return wake }
        return min(wake ?? until, until)
    }

    public func filesChanged(_ paths: [String], at time: Double) { current.filesChanged(paths, at: time) }

    public func shown() { inner.shown() }
}
