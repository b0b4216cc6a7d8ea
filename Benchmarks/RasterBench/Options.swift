/// Command-line options; see `usage`.
struct Options {
    var measures = true
    var reports = true
    var build = "this"
    var renderers: [Renderer] = Renderer.allCases
    var listsDirectory = "bench-data"
    var recordsPath: String?
    var plan = MeasurePlan()
    var recordFiles: [String] = []
    var markdownPath: String?
    var expectChecksumsPath: String?
    var recordChecksumsPath: String?
    /// Fail when rendering allocated, or when the allocation counter was missing or blind.
    var expectNoAllocations = false
    /// A line printed above the table (scripts/bench passes the command that made the report).
    var heading: String?
    /// Also time the ripple pond with and without its counter, and count the counted pond's allocations.
    var measuresCounter = false

    static let usage = """
        usage: RasterBench measure --build NAME [--renderers swell,swell-banded,swell-glyphs,cairo,memset,swell-cold,cairo-cold] [--lists DIR] [--records FILE]
                                   [--quick] [--frames N] [--save-images DIR] [--counter]
               RasterBench report RECORDS... [--markdown FILE] [--expect-checksums FILE] [--record-checksums FILE]
                                  [--expect-no-allocations] [--heading TEXT]
               RasterBench [measure options] [report options]   (both in one process)
        """

    init(_ arguments: [String]) throws(OptionsError) {
        var rest = arguments[...]
        switch rest.first {
        case "measure":
            reports = false
            rest = rest.dropFirst()
        case "report":
            measures = false
            rest = rest.dropFirst()
        default: break
        }
        var frames: Int?
        var imageDirectory: String?
        func value(_ flag: String) throws(OptionsError) -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                throw OptionsError(description: "\(flag) needs a value")
            }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--build": build = try value(argument)
            case "--lists": listsDirectory = try value(argument)
            case "--records": recordsPath = try value(argument)
            case "--quick": plan = .quick
            case "--counter": measuresCounter = true
            case "--save-images": imageDirectory = try value(argument)
            case "--frames":
                let text = try value(argument)
                guard let n = Int(text), n >= 1 else {
                    throw OptionsError(description: "--frames needs a positive count, got \(text)")
                }
                frames = n
            case "--renderers":
                let text = try value(argument)
                renderers = []
                for name in text.split(separator: ",") {
                    guard let renderer = Renderer(rawValue: String(name)) else {
                        throw OptionsError(
                            description:
                                "--renderers: unknown renderer \(name) (swell, swell-banded, swell-damage, swell-glyphs, cairo, memset, swell-cold or cairo-cold)"
                        )
                    }
                    renderers.append(renderer)
                }
            case "--markdown": markdownPath = try value(argument)
            case "--expect-checksums": expectChecksumsPath = try value(argument)
            case "--record-checksums": recordChecksumsPath = try value(argument)
            case "--heading": heading = try value(argument)
            case "--expect-no-allocations": expectNoAllocations = true
            case "--help", "-h": throw OptionsError(description: "help")
            default:
                guard !measures, !argument.hasPrefix("--") else {
                    throw OptionsError(description: "unknown option \(argument)")
                }
                recordFiles.append(argument)
            }
        }
        plan.imageDirectory = imageDirectory
        if let frames {
            plan.frames = frames
            plan.minimumSlowFrames = min(plan.minimumSlowFrames, frames)
        }
        if !measures && recordFiles.isEmpty {
            throw OptionsError(description: "report needs at least one records file")
        }
        let reportOnly = [markdownPath, heading, expectChecksumsPath, recordChecksumsPath].contains { $0 != nil }
        if !reports && (reportOnly || expectNoAllocations) {
            throw OptionsError(description: "--markdown, --heading and the --expect/--record options belong to report")
        }
    }
}

struct OptionsError: Error, CustomStringConvertible {
    var description: String
}
