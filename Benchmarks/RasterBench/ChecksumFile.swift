/// Recorded Swell output checksums in the format `swell bench` uses (bench-data/checksums.txt):
/// one `name checksum` line per draw list, `#` comments. Every build must match the one recorded
/// picture, so a file also asserts that the portable and tuned builds render identically.
struct ChecksumFile {
    private var entries: [(name: String, value: UInt64)] = []

    typealias Measured = (build: String, list: String, hex: String, stable: Bool)

    /// One entry per list; fails when builds rendered a list differently (there is no one picture).
    init(recording measured: [Measured]) throws(FileError) {
        for m in measured {
            let value = UInt64(m.hex, radix: 16)!
            if let earlier = entries.first(where: { $0.name == m.list }) {
                guard earlier.value == value else {
                    throw FileError(description: "the builds render \(m.list) differently; not recording its checksum")
                }
            } else {
                entries.append((m.list, value))
            }
        }
    }

    init(text: String, path: String) throws(FileError) {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("#") || line.allSatisfy({ $0 == " " }) { continue }
            let fields = line.split(separator: " ")
            guard fields.count == 2, let value = UInt64(fields[1], radix: 16) else {
                throw FileError(description: "\(path):\(index + 1): expected a `name checksum` line (hex checksum)")
            }
            entries.append((String(fields[0]), value))
        }
    }

    var count: Int { entries.count }

    var text: String {
        entries.map { "\($0.name) \(String($0.value, radix: 16))\n" }.joined()
    }

    /// Every problem of `measured` against this recorded file (empty when all match).
    func problems(_ measured: [Measured]) -> [String] {
        var problems: [String] = []
        for m in measured {
            if !m.stable { problems.append("\(m.list) (\(m.build)): the picture changed between frames") }
            guard let expected = entries.last(where: { $0.name == m.list })?.value else {
                problems.append("\(m.list): no recorded checksum; record one with --record-checksums")
                continue
            }
            if UInt64(m.hex, radix: 16) != expected {
                problems.append(
                    "\(m.list) (\(m.build)): the rendered frame changed (checksum \(m.hex), recorded "
                        + "\(String(expected, radix: 16)))")
            }
        }
        return problems
    }
}
