import SwellDrawList
import SwellRaster
import Testing

private func benchList(_ name: String) -> String {
    let here = #filePath
    let root = here[..<here.firstRange(of: "/Tests/")!.lowerBound]
    return root + "/bench-data/\(name).json"
}

@Suite struct DrawListTests {
    @Test func loadsEveryBenchList() throws {
        let ripples = try loadDrawList(path: benchList("ripples-1000"))
        #expect(ripples.width == 1920 && ripples.height == 1080)
        #expect(ripples.commands.count == 1000)
        #expect(ripples.background == Color(r: 1, g: 1, b: 1))
        guard case .draw(let last) = ripples.commands.last!, case .ring(let ring) = last.shape else {
            Issue.record("last op is not a ring")
            return
        }
        #expect(ring == Ring(centerX: 1643.4422, centerY: 911.3088, radius: 0.0639, width: 2))
        #expect(last.color == Color(r: 0.4628, g: 1, b: 0.8392, a: 0.5))

        let waves = try loadDrawList(path: benchList("waves-4k"))
        #expect(waves.width == 3840 && waves.commands.count == 14)
        guard case .draw(let lastWave) = waves.commands.last!, case .waveStroke(let stroke) = lastWave.shape else {
            Issue.record("last op is not a stroke: \(waves.commands.last!)")
            return
        }
        #expect(stroke.envelope == .parabola && stroke.width == 10 && stroke.length == 3840)
        #expect(stroke.wave == Wave(baseline: 1080, amplitude: 100, wavelength: 2412.7432, phase: 3.5))
        _ = try loadDrawList(path: benchList("waves"))
        _ = try loadDrawList(path: benchList("ripples-60"))
    }

    /// What the bench's cold frame does: empty the caches and the runs (untimed), lay the text
    /// out again (timed). The runs must really be empty in between, and the frame after must be
    /// the same bytes as the first.
    @Test func textLaidOutAgainAfterEmptyingGivesTheSameFrame() throws {
        var list = try loadDrawListDocument(path: benchList("text-page"))
        let first = PixelBuffer(width: list.frame.width, height: list.frame.height)
        render(list.frame, into: first.surface)
        list.typesetter?.removeCachedLines()
        list.emptyTextRuns()
        let glyphCount = list.texts.reduce(0) { sum, text in
            guard case .draw(let command) = list.frame.commands[text.commandIndex],
                case .glyphs(let run) = command.shape
            else { return sum + 1 }
            return sum + run.glyphs.count
        }
        #expect(list.texts.count > 50 && glyphCount == 0)
        list.layoutText()
        let again = PixelBuffer(width: list.frame.width, height: list.frame.height)
        render(list.frame, into: again.surface)
        #expect(again.packedBytes() == first.packedBytes())
    }

    @Test func readsClipRectangles() throws {
        let text =
            ##"{"format":"drawlist/1","width":8,"height":8,"clear":[0,0,0],"ops":[{"op":"disc","cx":4,"cy":4,"radius":3,"color":"#FF0000","clip":[1,2,3,4]}]}"##
        let frame = try parseDrawList(bytes: Array(text.utf8), name: "t.json")
        guard case .draw(let disc) = frame.commands[0] else {
            Issue.record("the op is not a shape: \(frame.commands[0])")
            return
        }
        #expect(disc.clip == ClipRect(x0: 1, y0: 2, x1: 4, y1: 6))
        #expect(disc.color == Color(r: 1, g: 0, b: 0, a: 1))
    }

    private static let valid = #"{"format":"drawlist/1","width":10,"height":10,"clear":[1,1,1],"ops":[OP]}"#

    @Test(arguments: [
        (
            #"{"op":"ring","cx":1,"cy":2,"radius":-2,"width":1,"color":[1,0,0,1]}"#,
            "$.ops[0].radius: expected a number ≥ 0, got -2"
        ),
        (
            #"{"op":"ring","cx":1,"cy":2,"radius":2,"width":-1,"color":[1,0,0,1]}"#,
            "$.ops[0].width: expected a number ≥ 0, got -1"
        ),
        (
            #"{"op":"ring","cx":1e400,"cy":2,"radius":2,"width":1,"color":[1,0,0,1]}"#,
            "$.ops[0].cx: expected a finite number, got inf"
        ),
        (
            #"{"op":"star","color":[1,0,0,1]}"#,
            #"$.ops[0].op: expected one of "ring", "disc", "wave-fill", "wave-stroke", "text", got "star""#
        ),
        (#"{"op":"disc","cx":"1","cy":1,"radius":1,"color":[1,0,0]}"#, #"$.ops[0].cx: expected a number, got "1""#),
        (#"{"op":"disc","cx":1,"cy":1,"radius":1}"#, #"$.ops[0]: missing required member "color""#),
        (
            #"{"op":"disc","cx":1,"cy":1,"radius":1,"color":[1,0,0],"radios":1}"#,
            "$.ops[0].radios: unknown member; allowed here"
        ),
        (
            #"{"op":"wave-fill","baseline":1,"amplitude":1,"wavelength":0,"phase":0,"color":[1,0,0]}"#,
            "$.ops[0].wavelength: expected a wavelength > 0, got 0"
        ),
        (
            #"{"op":"wave-stroke","baseline":1,"amplitude":1,"wavelength":5,"phase":0,"width":1,"envelope":"sine","color":[1,0,0]}"#,
            #"$.ops[0].envelope: expected one of "none", "parabola", got "sine""#
        ),
        (
            #"{"op":"disc","cx":1,"cy":1,"radius":1,"color":[1,0,0,1.5]}"#,
            "$.ops[0].color[3]: expected a number in 0...1, got 1.5"
        ),
        (
            #"{"op":"disc","cx":1,"cy":1,"radius":1,"color":[1,0,0],"clip":[0,0,-1,2]}"#,
            "$.ops[0].clip[2]: expected a whole number in 0...16384, got -1"
        ),
    ])
    func rejectsBadOpsNamingTheField(op: String, expected: String) {
        let text = Self.valid.replacing("OP", with: op)
        do {
            _ = try parseDrawList(bytes: Array(text.utf8), name: "list.json")
            Issue.record("accepted \(op)")
        } catch {
            #expect(error.description.hasPrefix("list.json: " + expected), "\(error)")
        }
    }

    @Test(arguments: [
        (
            #"{"format":"drawlist/2","width":1,"height":1,"clear":[0,0,0],"ops":[]}"#,
            #"$.format: expected "drawlist/1", got "drawlist/2""#
        ),
        (
            #"{"format":"drawlist/1","width":0,"height":1,"clear":[0,0,0],"ops":[]}"#,
            "$.width: expected a whole number in 1...16384, got 0"
        ),
        (
            #"{"format":"drawlist/1","width":1,"height":16385,"clear":[0,0,0],"ops":[]}"#,
            "$.height: expected a whole number in 1...16384, got 16385"
        ),
        (
            #"{"format":"drawlist/1","width":1.5,"height":1,"clear":[0,0,0],"ops":[]}"#,
            "$.width: expected a whole number"
        ),
        (
            #"{"format":"drawlist/1","width":1,"height":1,"clear":[0,0,0,0.5],"ops":[]}"#,
            "$.clear: the background must be opaque"
        ),
        (
            #"{"format":"drawlist/1","width":1,"height":1,"clear":[0,0,0],"ops":{}}"#,
            "$.ops: expected an array, got {…0 members}"
        ),
        (#"{"format":"drawlist/1","width":1,"height":1,"clear":[0,0,0]}"#, #"$: missing required member "ops""#),
        (#"[1]"#, "$: expected an object, got […1 items]"),
    ])
    func rejectsBadDocuments(text: String, expected: String) {
        do {
            _ = try parseDrawList(bytes: Array(text.utf8), name: "d.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix("d.json: " + expected), "\(error)")
        }
    }

    @Test func missingFileIsReportedAsUnreadable() {
        do {
            _ = try loadDrawList(path: "/nonexistent/list.json")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.isUnreadable)
            #expect(error.description == "/nonexistent/list.json: cannot read: No such file or directory")
        }
    }
}
