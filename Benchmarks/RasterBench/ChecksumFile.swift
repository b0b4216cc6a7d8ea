/// Recorded Swell output checksums in the format `swell bench` uses (bench-data/checksums.txt):
/// `name checksum` lines, `#` comments. A build that renders a list differently from the plain
/// entry (tuned SIMD may round a channel 1/255 apart) has its own `name@build checksum` line,
/// which `swell bench` ignores.
struct ChecksumFile {
    private var entries: [(key: String, value: UInt64)] = []

    typealias Measured = (build: String, list: String, hex: String, stable: Bool)

    /// The build whose pictures the plain `name checksum` lines hold: the default build, which
    /// `swell bench` in scripts/test-bench also uses.
    static let primaryBuild = "portable"

    init(recording measured: [Measured]) {
        let lists = measured.map(\.list).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for list in lists {
            let builds = measured.filter { $0.list == list }
            let primary = builds.first { $0.build == Self.primaryBuild } ?? builds[0]
            let primaryValue = UInt64(primary.hex, radix: 16)!
            entries.append((list, primaryValue))
            for other in builds where UInt64(other.hex, radix: 16)! != primaryValue {
                entries.append(("\(list)@\(other.build)", UInt64(other.hex, radix: 16)!))
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
        entries.map { "\($0.key) \(String($0.value, radix: 16))\n" }.joined()
    }

    private func recorded(_ key: String) -> UInt64? { entries.last { $0.key == key }?.value }

    /// Every problem of `measured` against this recorded file (empty when all match).
    func problems(_ measured: [Measured]) -> [String] {
        var problems: [String] = []
        for m in measured {
            if !m.stable { problems.append("\(m.list) (\(m.build)): the picture changed between frames") }
            guard let expected = recorded("\(m.list)@\(m.build)") ?? recorded(m.list) else {
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
