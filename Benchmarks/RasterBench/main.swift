// RasterBench: times Swell, Cairo and memset on the fixed draw lists and checks that rendering a
// frame allocates nothing. See scripts/bench, which builds portable and tuned binaries and merges
// their runs:
//
//   RasterBench measure --build NAME [--renderers swell,cairo,memset] [--lists DIR] [--records FILE]
//                       [--quick] [--frames N] [--save-images DIR] [--counter]
//   RasterBench report RECORDS... [--markdown FILE] [--expect-checksums FILE] [--record-checksums FILE]
//                      [--expect-no-allocations] [--heading TEXT]
//   RasterBench [measure options] [report options]    (measure and report in one process)
import Glibc

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    var records: [Record] = []
    if options.measures {
        let lists = try jsonFiles(in: options.listsDirectory)
        guard !lists.isEmpty else { throw FileError(description: "no *.json draw lists in \(options.listsDirectory)") }
        records = try measure(lists: lists, renderers: options.renderers, build: options.build, plan: options.plan)
        if options.measuresCounter {
            records += measureCounter(build: options.build, plan: options.plan, counter: AllocationCounter())
        }
        if let path = options.recordsPath {
            try writeTextFile(path, records.map { $0.line + "\n" }.joined())
        }
    }
    for path in options.recordFiles { records += try parseRecords(try readTextFile(path), source: path) }
    if options.reports {
        let report = Report(records)
        let markdown = (options.heading.map { $0 + "\n\n" } ?? "") + report.markdown
        printOutput(markdown)
        if let path = options.markdownPath { try writeTextFile(path, markdown) }
        if let path = options.recordChecksumsPath {
            let file = ChecksumFile(recording: report.checksums)
            try writeTextFile(path, file.text)
            printError("recorded \(file.count) checksums in \(path)")
        }
        var failed = false
        if let path = options.expectChecksumsPath {
            let problems = try ChecksumFile(text: try readTextFile(path), path: path).problems(report.checksums)
            if problems.isEmpty {
                printError("Swell output checksums match \(path)")
            } else {
                printError("Swell output differs from \(path):\n  " + problems.joined(separator: "\n  "))
                failed = true
            }
        }
        if options.expectNoAllocations {
            let problems = report.allocationProblems
            if problems.isEmpty {
                printError("no allocation while rendering frames, and the counter saw a deliberate one")
            } else {
                printError("allocation check failed:\n  " + problems.joined(separator: "\n  "))
                failed = true
            }
        }
        if failed { exit(1) }
    }
} catch let error as OptionsError {
    printError("RasterBench: \(error.description)\n\(Options.usage)")
    exit(2)
} catch {
    printError("RasterBench: \(error)")
    exit(2)
}
