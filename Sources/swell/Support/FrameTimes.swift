/// Per-frame timings of a benchmark run and their summary statistics.
struct FrameTimes {
    /// Milliseconds spent rendering each frame.
    var render: [Double] = []
    /// Milliseconds spent presenting each frame (copy to the scan-out buffer and flip); 0 without a display.
    var present: [Double] = []
    /// Milliseconds of `present` spent copying the shadow to scan-out memory (its damage only).
    var copy: [Double] = []
    /// Milliseconds of the start-up frame, drawn before the timed ones (a scene's first frame
    /// decodes its pictures and lays its text out; a kiosk draws it once, while the console is
    /// still on screen, so it is reported apart and judged by no budget). Nil: none was drawn.
    var startup: Double?
    /// Milliseconds waited, between frames and untimed, for the scene's work on other threads (a
    /// playlist's next item, a slideshow's next picture), each wait at most the idle rest of the
    /// frame period before (what a kiosk's render thread sleeps through): the stepped clock runs
    /// faster than real time. What is not done by then is waited for in the next frame's time.
    /// The frames that waited, and the longest wait.
    var waited = 0.0
    var waits = 0
    var longestWait = 0.0

    var total: [Double] { zip(render, present).map { $0 + $1 } }

    mutating func reserve(_ count: Int) {
        render.reserveCapacity(count)
        present.reserveCapacity(count)
        copy.reserveCapacity(count)
    }
}

/// Summary of one series of frame times, in milliseconds.
struct FrameStatistics {
    let count: Int
    let min: Double
    let p50: Double
    let p95: Double
    let p99: Double
    let max: Double
    let mean: Double
    /// Frames slower than the budget (one refresh interval).
    let overBudget: Int
    let budget: Double

    /// budget / p99: how many times over the slow frames would still fit; below 1, frames are dropped.
    var headroom: Double { p99 > 0 ? budget / p99 : .infinity }

    init(_ samples: [Double], budget: Double) {
        let sorted = samples.sorted()
        count = sorted.count
        self.min = sorted.first ?? 0
        self.max = sorted.last ?? 0
        p50 = percentile(sorted, 0.50)
        p95 = percentile(sorted, 0.95)
        p99 = percentile(sorted, 0.99)
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        overBudget = sorted.reduce(0) { $0 + ($1 > budget ? 1 : 0) }
        self.budget = budget
    }

    var json: String {
        func n(_ v: Double) -> String { v.isFinite ? formatMilliseconds(v) : "null" }
        return """
            {"frames": \(count), "min_ms": \(n(min)), "p50_ms": \(n(p50)), "p95_ms": \(n(p95)), "p99_ms": \(n(p99)), \
            "max_ms": \(n(max)), "mean_ms": \(n(mean)), "over_budget": \(overBudget), "headroom": \(n(headroom))}
            """
    }
}

/// A fixed-width text table, columns right-aligned except the first.
func formatTable(_ header: [String], _ rows: [[String]]) -> String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { column, cell in
            let pad = String(repeating: " ", count: widths[column] - cell.count)
            return column == 0 ? cell + pad : pad + cell
        }.joined(separator: "  ")
    }
    let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
    return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
}
