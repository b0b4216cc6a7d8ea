import Foundation
import Testing

/// `swell bench --scenes`: every scene file of a folder in one run and one table, with which
/// scenes held the refresh rate. (Timing is never asserted: only what was run and reported.)
@Suite struct BenchCommandTests {
    @Test func scenesRunsEverySceneFileAndReportsEach() throws {
        let folder = try temporaryFolder()
        let results = try temporaryFolder()  // not in the scene folder: it would be read as a scene file
        for name in ["flow", "wave"] {
            try FileManager.default.copyItem(
                atPath: SceneCommandTests.examples + "/\(name).json", toPath: folder + "/\(name).json")
        }
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let run = try SwellProcess.run([
            "bench", "--scenes", folder, "--size", "96x54", "--frames", "4", "--threads", "1", "--json",
            results + "/out.json", "--record-checksums", results + "/sums.txt",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("swell bench: 2 scene files in \(folder) on memory, 4 frames each at 60 Hz"))
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("flow ") || $0.hasPrefix("wave ") }
        #expect(rows.count == 2 && rows.allSatisfy { $0.contains("96x54") })
        #expect(
            run.stdout.contains("every scene held 60 Hz") || run.stdout.contains("frames over the 16.667 ms budget"))
        let json = try String(contentsOfFile: results + "/out.json", encoding: .utf8)
        #expect(json.contains("\"name\": \"flow\"") && json.contains("\"name\": \"wave\""))
        #expect(json.components(separatedBy: "\"frames\": 4,").count - 1 == 6, "render, present and total per scene")
        // The checksums are the scenes' last frames: the same run again gives the same ones.
        let again = try SwellProcess.run([
            "bench", "--scenes", folder, "--size", "96x54", "--frames", "4", "--threads", "1", "--expect-checksums",
            results + "/sums.txt",
        ])
        #expect(again.status == 0 && again.stdout.contains("checksums: all 2 frames match"), "\(again.stderr)")
    }

    @Test func scenesRefusesBadFoldersAndMixedInputs() throws {
        let empty = try temporaryFolder()
        let none = try SwellProcess.run(["bench", "--scenes", empty, "--frames", "1"])
        #expect(none.status == 66 && none.stderr.contains("no *.json scene files"))
        let mixed = try SwellProcess.run(["bench", "ripples", "--scenes", empty])
        #expect(mixed.status == 64 && mixed.stderr.contains("--scenes"))
        try Data("{\"scene\": \"wave\", \"parameters\": {\"amplitude\": \"big\"}}".utf8).write(
            to: URL(fileURLWithPath: empty + "/bad.json"))
        let bad = try SwellProcess.run(["bench", "--scenes", empty, "--frames", "1"])
        #expect(bad.status == 65 && bad.stderr.contains("bad.json"), "a broken file stops the run before it starts")
    }

    /// `--plot`: every frame's render time on the frame-time axis, the budget line at the budget
    /// in both panels, and its label drawn over the series on a halo (frame times near the budget
    /// used to run through it).
    @Test func plotDrawsEveryFrameAgainstTheBudget() throws {
        let folder = try temporaryFolder()
        let run = try SwellProcess.run([
            "bench", "wave", "--size", "96x54", "--frames", "12", "--threads", "1", "--plot", folder + "/plot.svg",
            "--json", folder + "/times.json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let svg = try String(contentsOfFile: folder + "/plot.svg", encoding: .utf8)
        let elements = svgElements(svg)
        #expect(elements.first?.name == "svg")
        // The two panels are the frames drawn in grey: the time series, then the histogram.
        let panels = elements.filter { $0.name == "rect" && $0.attributes["stroke"] == "#999" }
        try #require(panels.count == 2)
        let plotLeft = try #require(Double(panels[0].attributes["x"] ?? ""))
        let plotTop = try #require(Double(panels[0].attributes["y"] ?? ""))
        let plotWidth = try #require(Double(panels[0].attributes["width"] ?? ""))
        let plotHeight = try #require(Double(panels[0].attributes["height"] ?? ""))

        let json = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/times.json")))
                as? [String: Any])
        let times = try #require(json["render_ms"] as? [Double])
        let budget = try #require(json["budget_ms"] as? Double)
        #expect(times.count == 12)
        // The axis runs from 0 to a little above the larger of the budget and the slowest frame.
        let top = max(budget * 1.1, (times.max() ?? 0) * 1.05)
        func y(_ milliseconds: Double) -> Double { plotTop + plotHeight * (1 - milliseconds / top) }

        let lines = elements.filter { $0.name == "polyline" }
        try #require(lines.count == 1)
        let points = (lines[0].attributes["points"] ?? "").split(separator: " ").map {
            $0.split(separator: ",").compactMap { Double($0) }
        }
        try #require(points.count == times.count && points.allSatisfy { $0.count == 2 })
        #expect(abs(points.first![0] - plotLeft) < 0.1 && abs(points.last![0] - (plotLeft + plotWidth)) < 0.1)
        for (point, time) in zip(points, times) {
            #expect(abs(point[1] - y(time)) < 0.2, "a frame of \(time) ms drawn at y \(point[1])")
        }
        let budgetLines = elements.filter { $0.name == "line" && $0.attributes["stroke"] == "#e67e22" }
        #expect(budgetLines.count == 2, "one across each panel")
        for line in budgetLines {
            #expect(abs((Double(line.attributes["y1"] ?? "") ?? -1) - y(budget)) < 0.1)
        }
        let labelIndex = try #require(elements.firstIndex { $0.text.hasPrefix("budget 16.667 ms") })
        let lineIndex = try #require(elements.firstIndex { $0.name == "polyline" })
        #expect(labelIndex > lineIndex, "the label is drawn over the series")
        let label = elements[labelIndex].attributes
        #expect(label["stroke"] == "white" && label["paint-order"] == "stroke", "on a halo")
    }
}

/// The elements of an SVG written one to a line, as `frameTimePlot` writes them: name, attributes
/// and the text up to the element's closing tag.
private func svgElements(_ svg: String) -> [(name: String, attributes: [String: String], text: String)] {
    let element = /<([a-z]+)((?:\s+[a-z][a-z0-9-]*="[^"]*")*)\s*\/?>([^<]*)/
    let attribute = /([a-z][a-z0-9-]*)="([^"]*)"/
    return svg.matches(of: element).map { match in
        var attributes: [String: String] = [:]
        for pair in String(match.output.2).matches(of: attribute) {
            attributes[String(pair.output.1)] = String(pair.output.2)
        }
        return (String(match.output.1), attributes, String(match.output.3))
    }
}
