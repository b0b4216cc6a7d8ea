/// Merges the records of one or more measuring processes into the Markdown report.
struct Report {
    private var lists: [(name: String, width: Int, height: Int, ops: Int)] = []
    private var builds: [String] = []
    private var timings: [String: (frames: Int, median: Double, p95: Double)] = [:]
    private(set) var checksums: [(build: String, list: String, hex: String, stable: Bool)] = []
    private var allocations: [(build: String, list: String, calls: UInt64?, frames: Int)] = []
    private var canaries: [(build: String, calls: UInt64?)] = []
    private var agreements: [(build: String, list: String, compared: String, agreement: PixelAgreement)] = []
    private var textCaches:
        [(build: String, list: String, masks: Int, bytes: Int, budget: Int, glyphs: Int, lines: LineMasks)] = []

    /// The build whose rows the bars apply to.
    static let barBuild = "tuned"

    init(_ records: [Record]) {
        for record in records {
            switch record {
            case .list(let name, let width, let height, let ops):
                if !lists.contains(where: { $0.name == name }) { lists.append((name, width, height, ops)) }
            case .timing(let build, let list, let renderer, let frames, let median, let p95):
                if !builds.contains(build) { builds.append(build) }
                timings[key(build, list, renderer)] = (frames, median, p95)
            case .checksum(let build, let list, let hex, let stable): checksums.append((build, list, hex, stable))
            case .allocations(let build, let list, let calls, let frames):
                allocations.append((build, list, calls, frames))
            case .allocationCanary(let build, let calls): canaries.append((build, calls))
            case .agreement(let build, let list, let compared, let agreement):
                agreements.append((build, list, compared, agreement))
            case .textCache(let build, let list, let masks, let bytes, let budget, let glyphs, let lines):
                textCaches.append((build, list, masks, bytes, budget, glyphs, lines))
            }
        }
    }

    private func key(_ build: String, _ list: String, _ renderer: Renderer) -> String {
        "\(build)\t\(list)\t\(renderer.rawValue)"
    }

    private func median(_ build: String, _ list: String, _ renderer: Renderer) -> Double? {
        timings[key(build, list, renderer)]?.median
    }

    /// Cairo's median for a list: from the same process when it timed Cairo, else from any process
    /// (Cairo is the same system library in every build).
    private func cairoMedian(_ build: String, _ list: String) -> Double? {
        median(build, list, .cairo) ?? builds.lazy.compactMap { median($0, list, .cairo) }.first
    }

    var markdown: String {
        var out = "| list | renderer | median ms | p95 ms | Cairo/Swell | Swell/memset | bar met |\n"
        out += "|---|---|--:|--:|--:|--:|---|\n"
        let cairoBuilds = builds.filter { b in lists.contains { timings[key(b, $0.name, .cairo)] != nil } }
        for list in lists {
            let label = "\(list.name) (\(list.width)x\(list.height), \(list.ops) ops)"
            func row(_ renderer: String, _ t: (frames: Int, median: Double, p95: Double), _ ratios: [String]) {
                out += "| \(label) | \(renderer) | \(formatMs(t.median)) | \(formatMs(t.p95)) | "
                out += ratios.joined(separator: " | ") + " |\n"
            }
            for build in builds {
                guard let t = timings[key(build, list.name, .cairo)] else { continue }
                row(cairoBuilds.count > 1 ? "Cairo (\(build) process)" : "Cairo", t, ["", "", ""])
            }
            for (variant, build) in [Renderer.swell, .swellBanded, .swellDamage].flatMap({ v in builds.map { (v, $0) } }
            ) {
                guard let t = timings[key(build, list.name, variant)] else { continue }
                let cairoOverSwell = cairoMedian(build, list.name).map { $0 / t.median }
                let swellOverMemset = median(build, list.name, .memset).map { t.median / $0 }
                var verdict = "–"
                if build == Self.barBuild, let bar = Bar.forList(list.name) {
                    verdict = bar.verdict(cairoOverSwell: cairoOverSwell, swellOverMemset: swellOverMemset)
                }
                row(
                    variant == .swell
                        ? "Swell (\(build))"
                        : variant == .swellBanded ? "Swell banded (\(build))" : "Swell damage (\(build))", t,
                    [ratioText(cairoOverSwell), ratioText(swellOverMemset), verdict])
            }
            for build in builds {
                guard let t = timings[key(build, list.name, .swellGlyphs)] else { continue }
                let ratio = cairoMedian(build, list.name).map { $0 / t.median }
                row("Swell banded, glyph by glyph (\(build))", t, [ratioText(ratio), "", "–"])
            }
            for build in builds {
                guard let cold = timings[key(build, list.name, .swellCold)] else { continue }
                let cairoCold = median(build, list.name, .cairoCold)
                if let c = timings[key(build, list.name, .cairoCold)] {
                    row("Cairo cold (\(build) process)", c, ["", "", ""])
                }
                let ratio = cairoCold.map { $0 / cold.median }
                let verdict =
                    build == Self.barBuild
                    ? Bar(minCairoOverSwell: 1).verdict(cairoOverSwell: ratio, swellOverMemset: nil) : "–"
                row("Swell cold (\(build))", cold, [ratioText(ratio), "", verdict])
            }
            for build in builds {
                guard let t = timings[key(build, list.name, .memset)] else { continue }
                row("memset (\(build) process)", t, ["", "", ""])
            }
        }
        out += "\nFrames timed per row: "
        out += framesSummary() + ". Ratios use medians; Swell/memset uses the memset of the same process, "
        out += "Cairo/Swell the Cairo of the same process, or of the first process that timed Cairo. "
        out += "Swell = `render(_:into:)`; Swell banded = `FrameRenderer(threads: 1)` with its default bands "
        out += "(about 1 MiB of pixels when most commands are rings or discs, else the whole frame); "
        out += "Swell damage = the same renderer tracking damage, given the list with a small disc added and then "
        out += "the list again: two frames per step, each drawing only the disc's rectangle. "
        out +=
            "Bars apply to the \(Self.barBuild) build (C/S = Cairo/Swell, S/M = Swell/memset); timing is never enforced.\n"
        out += checksumSection + agreementSection + allocationSection + textCacheSection
        return out
    }

    private var textCacheSection: String {
        guard !textCaches.isEmpty else { return "" }
        var out = "\nGlyph cache after the warm frames (cold: every cache emptied before each frame, "
        out +=
            "fonts open, text laid out again), and the line masks its runs were merged into "
        out += "(`GlyphRun.mergingInk`: runs merged, masks composited a frame, line-mask bytes):\n\n"
        out += "| build | list | glyphs drawn | masks | mask bytes | budget | merged runs | masks a frame | "
        out += "line-mask bytes | glyphs/ms warm | glyphs/ms cold |\n|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
        for c in textCaches {
            func rate(_ r: Renderer) -> String {
                median(c.build, c.list, r).map { formatFixed(Double(c.glyphs) / $0, digits: 0) } ?? "–"
            }
            out += "| \(c.build) | \(c.list) | \(c.glyphs) | \(c.masks) | \(c.bytes) | \(c.budget) | "
            out += "\(c.lines.runs) | \(c.lines.masks) | \(c.lines.bytes) | "
            out += "\(rate(.swellBanded)) | \(rate(.swellCold)) |\n"
        }
        return out
    }

    private func ratioText(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return formatFixed(value, digits: value < 10 ? 2 : 1) + "×"
    }

    private func framesSummary() -> String {
        var parts: [String] = []
        for renderer in Renderer.allCases {
            let counts = Set(timings.filter { $0.key.hasSuffix("\t" + renderer.rawValue) }.map(\.value.frames)).sorted()
            if !counts.isEmpty {
                parts.append("\(renderer.rawValue) \(counts.map(String.init).joined(separator: "/"))")
            }
        }
        return parts.joined(separator: ", ")
    }

    private var checksumSection: String {
        guard !checksums.isEmpty else { return "" }
        var out = "\nSwell output checksums (FNV-1a 64 over the visible pixel bytes, "
        out += "as `swell bench` computes them):\n\n"
        out += "| list | build | checksum | same picture every frame |\n|---|---|---|---|\n"
        for c in checksums { out += "| \(c.list) | \(c.build) | `\(c.hex)` | \(c.stable ? "yes" : "NO") |\n" }
        for list in lists {
            let values = Set(checksums.filter { $0.list == list.name }.map(\.hex))
            if values.count > 1 { out += "\nNote: the builds render \(list.name) differently (checksums differ).\n" }
        }
        return out
    }

    private var agreementSection: String {
        guard !agreements.isEmpty else { return "" }
        var out = "\nPixel agreement (R, G, B channels, 8-bit steps; Cairo approximates arcs with splines, "
        out += "so small Cairo/Swell differences are expected; banding should change nothing):\n\n"
        out += "| list | build | compared | mean abs difference | max difference | first at (x, y) "
        out += "| pixels off by > \(PixelAgreement.visibleThreshold) |\n"
        out += "|---|---|---|--:|--:|--:|--:|\n"
        for (list, build, compared, a) in agreements.map({ ($0.list, $0.build, $0.compared, $0.agreement) }) {
            out += "| \(list) | \(build) | \(compared) | \(formatFixed(a.meanChannelDifference, digits: 3)) "
            out += "| \(a.maxChannelDifference) | (\(a.maxDifferenceAt.x), \(a.maxDifferenceAt.y)) "
            out += "| \(formatFixed(a.visiblyDifferentFraction * 100, digits: 3)) % |\n"
        }
        return out
    }

    /// Why the allocation check does not prove "no allocation per frame" (empty when it does).
    var allocationProblems: [String] {
        var problems: [String] = []
        for canary in canaries {
            switch canary.calls {
            case nil: problems.append("\(canary.build): the counter shim was not preloaded (run through scripts/bench)")
            case 0: problems.append("\(canary.build): the counter missed a deliberate allocation")
            default: break
            }
        }
        for a in allocations {
            if let calls = a.calls, calls > 0 {
                problems.append("\(a.list) (\(a.build)): \(calls) allocation call(s) in \(a.frames) frames")
            }
        }
        if canaries.isEmpty { problems.append("no allocation check in the records") }
        return problems
    }

    private var allocationSection: String {
        var out =
            "\nAllocations per rendered frame, `render(_:into:)`, banded `FrameRenderer.render` and its damage path "
        out += "(LD_PRELOAD counter of malloc, calloc, realloc, "
        out += "posix_memalign, aligned_alloc, memalign, valloc):\n\n"
        for canary in canaries {
            let result =
                canary.calls.map {
                    $0 > 0
                        ? "saw \($0) call(s) for one deliberate allocation: the counter works"
                        : "saw NOTHING for a deliberate allocation: the counter is broken"
                }
                ?? "counter not loaded: not checked"
            out += "- \(canary.build) process self-test: \(result)\n"
        }
        for a in allocations {
            let value = a.calls.map { formatPerFrame($0, a.frames) } ?? "not checked"
            out += "- \(a.list) (\(a.build)): allocations per frame: \(value) (over \(a.frames) frames)\n"
        }
        return out
    }
}
