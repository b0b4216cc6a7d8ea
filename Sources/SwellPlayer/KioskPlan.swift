import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService

/// Everything a kiosk runs, typed and checked: which outputs show what, how touches reach them,
/// the clock and the screen's power. A kiosk file (`parseKioskFile`) and `swell run`'s options
/// are two spellings of it; one road opens its outputs and runs it.
public struct KioskPlan: Sendable, Equatable {
    /// One output and what it shows.
    public struct Output: Sendable, Equatable {
        /// A DRM connector such as HDMI-A-1 (nil: the first connected; a plan of one output).
        public var connector: String?
        public var mode: ModeRequest?
        public var rotation: Rotation
        /// A scene or page file (absolute, or relative to the working folder), or a built-in
        /// scene's name.
        public var content: String
        /// A video wall's tile: the rectangle of the wall's canvas this output shows.
        public var viewport: Viewport?

        public init(
            connector: String? = nil, mode: ModeRequest? = nil, rotation: Rotation = .none, content: String,
            viewport: Viewport? = nil
        ) {
            self.connector = connector
            self.mode = mode
            self.rotation = rotation
            self.content = content
            self.viewport = viewport
        }
    }

    /// One content over the canvas several outputs of one card make together.
    public struct Span: Sendable, Equatable {
        /// The outputs in order; their `content` is the span's.
        public var outputs: [DRMOutputRequest]
        public var arrangement: SpanLayout.Arrangement
        public var bezel: Int
        public var content: String

        public init(outputs: [DRMOutputRequest], arrangement: SpanLayout.Arrangement, bezel: Int, content: String) {
            self.outputs = outputs
            self.arrangement = arrangement
            self.bezel = bezel
            self.content = content
        }
    }

    public enum Layout: Sendable, Equatable {
        /// Each output its own content.
        case outputs([Output])
        case span(Span)
    }

    /// Which touch device reaches which output, and how each is calibrated.
    public struct Touch: Sendable, Equatable {
        public var routes: [TouchRouting.Request] = []
        /// Every device's calibration unless it has its own.
        public var calibration: TouchCalibration = .identity
        public var calibrations: [DeviceCalibration] = []

        public init() {}
    }

    public struct DeviceCalibration: Sendable, Equatable {
        public var device: String
        public var matrix: TouchCalibration

        public init(device: String, matrix: TouchCalibration) {
            self.device = device
            self.matrix = matrix
        }
    }

    public var layout: Layout
    public var driver: OutputChoice = .auto
    /// A DRM card or framebuffer (nil: the first usable).
    public var device: String?
    /// The panel size of the memory driver.
    public var memoryWidth = 1920
    public var memoryHeight = 1080
    public var touch = Touch()
    /// Scene time from CLOCK_REALTIME (a wall of boxes); nil: from the start.
    public var clock: RealtimeSceneClock?
    /// Seconds without a touch before the screen goes off until the next touch.
    public var screenOffAfter: Double?
    /// The screen is off every night between these local times.
    public var offHours: OffHours?
    /// Render threads (nil: one per core).
    public var threads: Int?
    /// A touch script replayed in real time on the first output (demonstrations, soak tests).
    public var script: String?
    /// What the outputs show when (a kiosk file's "schedule"); nil: always their own content.
    /// When the kiosk file names a `schedule/1` file (`scheduleFile`), the command reads it into
    /// this after parsing (`loadKioskPlan`).
    public var schedule: Schedule?
    /// The `schedule/1` file the kiosk file names, relative to the working folder; nil for an
    /// inline schedule or none.
    public var scheduleFile: String?
    /// The folder every file the scenes reach lies in, the scene files too (a kiosk file's
    /// "contentFolder", `--content-folder`); nil: each scene file's own folder.
    public var contentFolder: String?

    /// The management API (nil: off, the default).
    public var api: ManagementSettings?

    public init(layout: Layout) {
        self.layout = layout
    }

    /// The outputs' connectors in order (nil for a single output that takes the first connected).
    public var connectors: [String?] {
        switch layout {
        case .outputs(let outputs): outputs.map(\.connector)
        case .span(let span): span.outputs.map(\.connectorName)
        }
    }

    /// The sections of the plan that differ from `other`'s, by their kiosk file names, leaving
    /// out what each output shows and the schedule: what a changed kiosk file cannot change while
    /// running. A new schedule takes effect while running (`scheduleDiffers(from:)`).
    public func differences(from other: KioskPlan) -> [String] {
        var mine = self
        var theirs = other
        mine.clearContents()
        theirs.clearContents()
        var names: [String] = []
        if mine.layout != theirs.layout { names.append(layoutName) }
        if (driver, device, memoryWidth, memoryHeight) != (
            other.driver, other.device, other.memoryWidth, other.memoryHeight
        ) {
            names.append("driver")
        }
        if touch != other.touch { names.append("touch") }
        if clock != other.clock { names.append("clock") }
        if screenOffAfter != other.screenOffAfter || offHours != other.offHours { names.append("power") }
        if threads != other.threads { names.append("threads") }
        if script != other.script { names.append("input") }
        if api != other.api { names.append("api") }
        if contentFolder != other.contentFolder { names.append("contentFolder") }
        return names
    }

    /// Whether the schedule (inline or the file it names, and what that file holds once read)
    /// differs from `other`'s: a change the running kiosk takes up without a restart.
    public func scheduleDiffers(from other: KioskPlan) -> Bool {
        schedule != other.schedule || scheduleFile != other.scheduleFile
    }

    /// The name a schedule's rules give output `index`: its connector (a span: its first one;
    /// nil for a plan of one output that takes the first connected).
    public func scheduleOutput(_ index: Int) -> String? {
        switch layout {
        case .outputs(let outputs): outputs[index].connector
        case .span(let span): span.outputs.first?.connectorName
        }
    }

    /// What each output shows, in order (a span's one content for each of its outputs).
    public var outputContents: [String] {
        switch layout {
        case .outputs(let outputs): outputs.map(\.content)
        case .span(let span): [span.content]
        }
    }

    /// Output `index` shows `content` (a span's one content for index 0).
    public mutating func setContent(_ content: String, ofOutput index: Int) {
        switch layout {
        case .outputs(var outputs):
            outputs[index].content = content
            layout = .outputs(outputs)
        case .span(var span):
            span.content = content
            layout = .span(span)
        }
    }

    private var layoutName: String {
        if case .span = layout { return "span" }
        return "outputs"
    }

    private mutating func clearContents() {
        switch layout {
        case .outputs(var outputs):
            for index in outputs.indices { outputs[index].content = "" }
            layout = .outputs(outputs)
        case .span(var span):
            span.content = ""
            layout = .span(span)
        }
    }
}
