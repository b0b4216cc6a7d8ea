/// An SVG picture of a benchmark: frame time against frame number with the budget line, and a
/// histogram of frame times beside it. People look at a picture before they read a table.
func frameTimePlot(title: String, series: [(name: String, samples: [Double])], budget: Double) -> String {
    let legendRows = (series.reduce(0) { $0 + $1.name.count * 7 + 40 } / 880) + 1
    let width = 960.0
    let height = 400.0 + 20 * Double(legendRows)
    let plot = (x: 60.0, y: 40.0, w: 560.0, h: 320.0)
    let hist = (x: 680.0, y: 40.0, w: 240.0, h: 320.0)
    let colors = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#ff7f0e",
    ]
    let allSamples = series.flatMap(\.samples)
    let top = max(budget * 1.1, (allSamples.max() ?? 1) * 1.05, 0.001)
    let frames = max(1, series.map(\.samples.count).max() ?? 1)
    func y(_ ms: Double) -> Double { plot.y + plot.h * (1 - min(ms, top) / top) }
    func x(_ frame: Int) -> Double { plot.x + plot.w * Double(frame) / Double(max(1, frames - 1)) }
    func f(_ v: Double) -> String {
        String(Int((v * 10).rounded()) / 10) + "." + String(abs(Int((v * 10).rounded())) % 10)
    }

    var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(f(plot.x))" y="22" font-size="15" font-weight="bold">\(escapeXML(title))</text>
        <rect x="\(f(plot.x))" y="\(f(plot.y))" width="\(f(plot.w))" height="\(f(plot.h))" fill="none" stroke="#999"/>
        <rect x="\(f(hist.x))" y="\(f(hist.y))" width="\(f(hist.w))" height="\(f(hist.h))" fill="none" stroke="#999"/>

        """
    for step in 0...5 {
        let ms = top * Double(step) / 5
        svg += "<text x=\"\(f(plot.x - 6))\" y=\"\(f(y(ms) + 4))\" text-anchor=\"end\">\(f(ms))</text>\n"
        svg +=
            "<line x1=\"\(f(plot.x))\" x2=\"\(f(plot.x + plot.w))\" y1=\"\(f(y(ms)))\" y2=\"\(f(y(ms)))\" stroke=\"#eee\"/>\n"
    }
    svg +=
        "<text x=\"\(f(plot.x + plot.w / 2))\" y=\"\(f(plot.y + plot.h + 30))\" text-anchor=\"middle\">frame (\(frames))</text>\n"
    svg +=
        "<text x=\"14\" y=\"\(f(plot.y + plot.h / 2))\" transform=\"rotate(-90 14 \(f(plot.y + plot.h / 2)))\" text-anchor=\"middle\">ms per frame</text>\n"
    svg +=
        "<line x1=\"\(f(plot.x))\" x2=\"\(f(plot.x + plot.w))\" y1=\"\(f(y(budget)))\" y2=\"\(f(y(budget)))\" stroke=\"#e67e22\" stroke-dasharray=\"6 4\" stroke-width=\"1.5\"/>\n"

    let bins = 40
    var legendX = plot.x
    var legendY = plot.y + plot.h + 52
    for (index, entry) in series.enumerated() {
        let color = colors[index % colors.count]
        let points = entry.samples.enumerated().map { "\(f(x($0))),\(f(y($1)))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1\" points=\"\(points)\"/>\n"
        let advance = Double(entry.name.count * 7 + 40)
        if legendX + advance > width - 20 {
            legendX = plot.x
            legendY += 20
        }
        svg += "<text x=\"\(f(legendX))\" y=\"\(f(legendY))\" fill=\"\(color)\">■ \(escapeXML(entry.name))</text>\n"
        legendX += advance
        var counts = [Int](repeating: 0, count: bins)
        for sample in entry.samples { counts[min(bins - 1, Int(min(sample, top) / top * Double(bins)))] += 1 }
        let most = Double(max(1, counts.max() ?? 1))
        for (bin, count) in counts.enumerated() where count > 0 {
            let barTop = hist.y + hist.h * (1 - Double(bin + 1) / Double(bins))
            let length = hist.w * Double(count) / most
            svg +=
                "<rect x=\"\(f(hist.x))\" y=\"\(f(barTop))\" width=\"\(f(length))\" height=\"\(f(hist.h / Double(bins) - 1))\" fill=\"\(color)\" fill-opacity=\"0.5\"/>\n"
        }
    }
    svg +=
        "<text x=\"\(f(hist.x + hist.w / 2))\" y=\"\(f(hist.y + hist.h + 30))\" text-anchor=\"middle\">histogram (frames per bin)</text>\n"
    svg +=
        "<line x1=\"\(f(hist.x))\" x2=\"\(f(hist.x + hist.w))\" y1=\"\(f(y(budget)))\" y2=\"\(f(y(budget)))\" stroke=\"#e67e22\" stroke-dasharray=\"6 4\"/>\n"
    // The budget's label goes over the series, on a white halo: frame times near the budget, the
    // ones that matter, ran through it.
    svg +=
        "<text x=\"\(f(plot.x + plot.w - 4))\" y=\"\(f(y(budget) - 5))\" text-anchor=\"end\" fill=\"#e67e22\" stroke=\"white\" stroke-width=\"4\" stroke-linejoin=\"round\" paint-order=\"stroke\">budget \(formatMilliseconds(budget)) ms</text>\n"
    return svg + "</svg>\n"
}

func escapeXML(_ text: String) -> String {
    var out = ""
    for c in text {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(c)
        }
    }
    return out
}
