import Glibc
import SwellDrawList
import SwellOutput
import SwellRaster

/// How many frames to render and how.
struct MeasurePlan {
    /// Untimed frames per renderer before timing (page faults, caches, lazy Cairo state).
    var warmupFrames = 3
    /// Timed frames per renderer and list.
    var frames = 30
    /// Timing is split into rounds that cycle through the renderers, so that a burst of load from
    /// other processes on this shared machine hits every renderer rather than one.
    var rounds = 3
    /// Frames rendered with the allocation counter armed.
    var allocationFrames = 10
    /// A renderer slower than this per frame gets fewer frames (never fewer than `minimumSlowFrames`),
    /// so a 4K Cairo run does not take minutes.
    var slowFrameMs = 200.0
    var slowRendererBudgetMs = 6000.0
    var minimumSlowFrames = 10
    /// Where to write each renderer's last frame as PNG (nil: nowhere).
    var imageDirectory: String? = nil

    static let quick = MeasurePlan(
        warmupFrames: 1, frames: 5, rounds: 1, allocationFrames: 2, slowFrameMs: 200, slowRendererBudgetMs: 1000,
        minimumSlowFrames: 3, imageDirectory: nil)
}

/// Renders every list with the chosen renderers in this process and returns what it found.
func measure(lists: [String], renderers: [Renderer], build: String, plan: MeasurePlan) throws -> [Record] {
    var records: [Record] = []
    let counter = AllocationCounter()
    let canary = counter?.canaryCount()
    records.append(.allocationCanary(build: build, calls: canary))
    if let canary {
        printError("[\(build)] allocation counter self-test: \(canary) call(s) seen for one deliberate allocation")
    } else {
        printError("[\(build)] allocation counter shim not preloaded: allocation check not run (use scripts/bench)")
    }

    for path in lists {
        let name = listName(ofPath: path)
        let list = try loadDrawListDocument(path: path)
        let frame = list.frame
        records.append(.list(name: name, width: frame.width, height: frame.height, ops: frame.commands.count))
        records += try measureList(
            name: name, list: list, renderers: list.texts.isEmpty ? renderers.filter { !$0.isTextOnly } : renderers,
            build: build, plan: plan, counter: counter)
    }
    return records
}

private func measureList(
    name: String, list: DrawList, renderers: [Renderer], build: String, plan: MeasurePlan, counter: AllocationCounter?
) throws(FileError) -> [Record] {
    let frame = list.frame
    var coldList = list
    let coldBuffer = PixelBuffer(width: frame.width, height: frame.height)
    var glyphList = list
    if renderers.contains(.swellGlyphs) { glyphList.layoutText(mergingInk: false) }
    let glyphFrame = glyphList.frame
    let glyphBuffer = PixelBuffer(width: frame.width, height: frame.height)
    let swellBuffer = PixelBuffer(width: frame.width, height: frame.height)
    let bandedBuffer = PixelBuffer(width: frame.width, height: frame.height)
    let banded = FrameRenderer(threads: 1)
    let damaged = FrameRenderer(threads: 1)
    let damageBuffer = PixelBuffer(width: frame.width, height: frame.height)
    let displayList = frame
    var withDisc = displayList
    withDisc.append(
        DrawCommand(
            .disc(Disc(centerX: Double(frame.width) / 2, centerY: Double(frame.height) / 2, radius: 24)),
            color: Color(r: 1, g: 0.5, b: 0, a: 0.6)))
    damaged.render(displayList, into: damageBuffer.surface)
    let memsetBuffer = PixelBuffer(width: frame.width, height: frame.height)
    let cairo = renderers.contains(.cairo) ? CairoRenderer(width: frame.width, height: frame.height) : nil
    cairo?.setTexts(list.texts)
    // Its own renderer, so resetting its fonts never makes a warm Cairo frame cold.
    let coldCairo = renderers.contains(.cairoCold) ? CairoRenderer(width: frame.width, height: frame.height) : nil
    coldCairo?.setTexts(list.texts)
    let memsetBytes = memsetBuffer.stride * memsetBuffer.height
    let memsetValue = Int32(frame.background.opaquePixel & 0xFF)

    func renderOnce(_ renderer: Renderer) {
        switch renderer {
        case .swell: render(frame, into: swellBuffer.surface)
        // Whole frames: with damage tracking, the same frame again would draw nothing.
        case .swellBanded: banded.render(frame, into: bandedBuffer.surface, tracksDamage: false)
        case .swellGlyphs: banded.render(glyphFrame, into: glyphBuffer.surface, tracksDamage: false)
        case .swellDamage:
            damaged.render(withDisc, into: damageBuffer.surface)
            damaged.render(displayList, into: damageBuffer.surface)
        case .cairo: cairo!.render(frame)
        case .memset: memset(memsetBuffer.surface.base, memsetValue, memsetBytes)
        case .swellCold:
            coldList.layoutText()
            banded.render(coldList.frame, into: coldBuffer.surface, tracksDamage: false)
        case .cairoCold:
            coldCairo!.render(frame)
        }
    }
    /// Empties a cold renderer's caches before its frame, untimed: a cold frame is what a frame
    /// costs with the fonts open and nothing shaped or rasterised (Cairo's faces are opened here,
    /// as Swell's stay open; Swell's masks are freed here, as Cairo's scaled fonts are dropped).
    func emptyCaches(_ renderer: Renderer) {
        switch renderer {
        case .swellCold:
            coldList.typesetter?.removeCachedLines()
            coldList.emptyTextRuns()
        case .cairoCold: coldCairo!.text?.reset()
        default: break
        }
    }
    func timeOnce(_ renderer: Renderer) -> Double {
        emptyCaches(renderer)
        let start = monotonicNanoseconds()
        renderOnce(renderer)
        return Double(monotonicNanoseconds() - start) / 1e6
    }
    /// The Swell pipelines measured here, with the buffer each draws into and its label in the
    /// checksum and allocation records.
    let swellVariants = [
        (Renderer.swell, swellBuffer, build), (.swellBanded, bandedBuffer, build + "-banded"),
        (.swellDamage, damageBuffer, build + "-damage"), (.swellGlyphs, glyphBuffer, build + "-glyphs"),
    ].filter { renderers.contains($0.0) }

    // Warm up, and plan frame counts from the last warm-up frame's time.
    var targets: [Renderer: Int] = [:]
    for renderer in renderers {
        var last = 0.0
        for _ in 0..<max(plan.warmupFrames, 1) { last = timeOnce(renderer) }
        var target = plan.frames
        if last > plan.slowFrameMs {
            target = min(target, max(plan.minimumSlowFrames, Int(plan.slowRendererBudgetMs / last)))
        }
        targets[renderer] = target
    }
    let checksumsBefore = swellVariants.map { checksum($0.1.surface) }

    var times: [Renderer: FrameTimes] = [:]
    for round in 0..<plan.rounds {
        for renderer in renderers {
            let target = targets[renderer]!
            // Spread the target over the rounds; earlier rounds take the remainder.
            let share = target / plan.rounds + (round < target % plan.rounds ? 1 : 0)
            for _ in 0..<share { times[renderer, default: FrameTimes()].append(milliseconds: timeOnce(renderer)) }
        }
    }

    var records: [Record] = []
    for renderer in renderers {
        let t = times[renderer] ?? FrameTimes()
        records.append(
            .timing(build: build, list: name, renderer: renderer, frames: t.count, medianMs: t.median, p95Ms: t.p95))
        printError(
            "[\(build)] \(name): \(renderer.rawValue) median \(formatMs(t.median)) ms, p95 \(formatMs(t.p95)) ms"
                + " over \(t.count) frames")
    }

    for ((renderer, buffer, label), before) in zip(swellVariants, checksumsBefore) {
        let picture = SwellOutput.checksum(buffer.surface)
        records.append(.checksum(build: label, list: name, hex: hexDigits(picture), stable: picture == before))
        printError("[\(label)] \(name): Swell checksum \(hexDigits(picture))")

        let frames = plan.allocationFrames
        let calls = counter?.countAllocations {
            for _ in 0..<frames { renderOnce(renderer) }
        }
        records.append(.allocations(build: label, list: name, calls: calls, frames: frames))
        if let calls {
            printError("[\(label)] \(name): allocations per frame: \(formatPerFrame(calls, frames))")
        }
        if let directory = plan.imageDirectory {
            try savePNG(buffer.surface, to: "\(directory)/\(name)-swell-\(label).png")
        }
    }
    if let typesetter = list.typesetter {
        let cache = typesetter.glyphs
        var glyphs = 0
        var masks = 0
        for case .draw(let command) in list.frame.commands {
            guard case .glyphs(let run) = command.shape else { continue }
            glyphs += run.placedGlyphs
            masks += run.glyphs.count
        }
        let merged = list.mergedRuns
        let lines = LineMasks(runs: merged.count, masks: masks, bytes: merged.bytes)
        records.append(
            .textCache(
                build: build, list: name, masks: cache.count, bytes: cache.bytes, budget: cache.budget, glyphs: glyphs,
                lines: lines))
        printError("[\(build)] \(name): glyph cache \(cache.count) masks, \(cache.bytes) of \(cache.budget) bytes")
        printError(
            "[\(build)] \(name): \(lines.runs) of \(list.texts.count) runs merged into line masks, \(lines.bytes) bytes; "
                + "\(lines.masks) masks composited for \(glyphs) glyphs")
    }
    if let cairo, renderers.contains(.swell) {
        let agreement = PixelAgreement(cairo.pixels, swellBuffer.surface)
        records.append(.agreement(build: build, list: name, compared: "Cairo / Swell", agreement))
    }
    if renderers.contains(.swell) && renderers.contains(.swellBanded) {
        // Banding must not change the picture; when it does, this says by how much and where.
        let agreement = PixelAgreement(swellBuffer.surface, bandedBuffer.surface)
        records.append(.agreement(build: build, list: name, compared: "Swell / Swell banded", agreement))
    }
    if let directory = plan.imageDirectory, let cairo {
        try savePNG(cairo.pixels, to: "\(directory)/\(name)-cairo.png")
    }
    return records
}

func formatMs(_ value: Double) -> String { formatFixed(value, digits: value < 10 ? 2 : 1) }

func formatPerFrame(_ calls: UInt64, _ frames: Int) -> String {
    calls % UInt64(frames) == 0
        ? String(calls / UInt64(frames)) : formatFixed(Double(calls) / Double(frames), digits: 2)
}

/// Fixed-point text without Foundation's String(format:).
func formatFixed(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let fraction = String(Int(scaled - Double(whole) * scale))
        text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return text
}
