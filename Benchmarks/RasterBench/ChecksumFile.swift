/// A recorded set of Swell output checksums: one `list build checksum` line each, `#` comments.
/// CI compares a run against it so that an unintended change of the rendered pictures fails.
struct ChecksumFile {
    var entries: [String: String] = [:]  // "list build" → hex

    init(records checksums: [(build: String, list: String, hex: String, stable: Bool)]) {
        for c in checksums { entries["\(c.list) \(c.build)"] = c.hex }
    }

    init(text: String, path: String) throws(FileError) {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            guard fields.count == 3, fields[2].count == 16, UInt64(fields[2], radix: 16) != nil else {
                throw FileError(
                    description: "\(path):\(index + 1): expected `list build checksum` with a 16-hex-digit checksum")
            }
            entries["\(fields[0]) \(fields[1])"] = String(fields[2]).lowercased()
        }
    }

    var text: String {
        "# RasterBench Swell output checksums: list build FNV-1a-64 (scripts/bench --record-checksums)\n"
            + entries.keys.sorted().map { "\($0) \(entries[$0]!)\n" }.joined()
    }

    /// Every problem of `measured` against this recorded file (empty when all match).
    func problems(_ measured: [(build: String, list: String, hex: String, stable: Bool)]) -> [String] {
        var problems: [String] = []
        for m in measured {
            if !m.stable { problems.append("\(m.list) (\(m.build)): the picture changed between frames") }
            guard let expected = entries["\(m.list) \(m.build)"] else {
                problems.append("\(m.list) (\(m.build)): no recorded checksum; record one with --record-checksums")
                continue
            }
            if expected != m.hex { problems.append("\(m.list) (\(m.build)): checksum \(m.hex), recorded \(expected)") }
        }
        return problems
    }
}
