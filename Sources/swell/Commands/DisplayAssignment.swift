import SwellDisplay

/// One `--display CONNECTOR=FILE`: the output and the scene or page file it shows.
struct DisplayAssignment: Sendable, Equatable {
    var connectorName: String
    var file: String

    init(connectorName: String, file: String) {
        self.connectorName = connectorName
        self.file = file
    }

    /// Parses "HDMI-A-1=menu.json" (split at the first '=': a file name may hold one).
    init(parsing text: String) throws(CommandFailure) {
        guard let equals = text.firstIndex(of: "=") else {
            throw CommandFailure(
                ExitStatus.usage, "--display wants CONNECTOR=FILE, such as HDMI-A-1=menu.json, not '\(text)' (no '=')")
        }
        let name = String(text[..<equals])
        let file = String(text[text.index(after: equals)...])
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "," }) else {
            throw CommandFailure(
                ExitStatus.usage,
                "--display '\(text)': the connector must be a name such as HDMI-A-1 ('swell displays' lists them)")
        }
        guard !file.isEmpty else {
            throw CommandFailure(ExitStatus.usage, "--display '\(text)': a scene or page file must follow the '='")
        }
        self.init(connectorName: name, file: file)
    }

    /// Parses every `--display` value, reporting all malformed ones and every output given two
    /// scenes (connector names compare without case, as the kernel's are matched) in one error.
    static func parseAll(_ texts: [String]) throws(CommandFailure) -> [DisplayAssignment] {
        var problems: [String] = []
        var parsed: [DisplayAssignment] = []
        for text in texts {
            do {
                parsed.append(try DisplayAssignment(parsing: text))
            } catch {
                problems.append(error.message)
            }
        }
        var reported: Set<String> = []
        for assignment in parsed {
            let key = assignment.connectorName.lowercased()
            let same = parsed.filter { $0.connectorName.lowercased() == key }
            guard same.count > 1, reported.insert(key).inserted else { continue }
            problems.append(
                "--display: \(assignment.connectorName) is given \(same.count) scenes ("
                    + same.map(\.file).joined(separator: ", ") + "); one output shows one scene")
        }
        guard problems.isEmpty else { throw CommandFailure(ExitStatus.usage, problems.joined(separator: "\n")) }
        return parsed
    }

    /// Throws (exit 69) naming each assignment whose connector `card` does not have, with the
    /// connectors it has (as `swell displays` shows them).
    static func check(
        _ assignments: [DisplayAssignment], cardPath: String, connectors: [(name: String, status: String)]
    ) throws(CommandFailure) {
        let unknown = unknownConnectors(assignments.map(\.connectorName), among: connectors)
        guard !unknown.isEmpty else { return }
        let lines = assignments.filter { unknown.contains($0.connectorName) }.map {
            "\(cardPath): no connector named \($0.connectorName) (--display \($0.connectorName)=\($0.file)); "
                + "it has \(connectorList(connectors))"
        }
        throw CommandFailure(ExitStatus.unavailable, lines.joined(separator: "\n"))
    }
}
