import SwellJSON

/// `POST /api/v1/show`'s body: `{"output": …, "content": "menu.json", "for": 600}`.
public struct ShowRequest: Sendable, Equatable {
    public var output: String?
    public var content: ContentPath
    public var seconds: Double?

    public init(json bytes: [UInt8]) throws(Problem) {
        do {
            let root = JSONField(root: try parseJSON(bytes))
            try root.rejectUnknownMembers(allowed: ["output", "content", "for"])
            output = try root.optional("output")?.string()
            content = try ContentPath(try root["content"].string())
            seconds = try root.optional("for")?.number(in: 1...(366 * 86400))
        } catch let error as JSONSyntaxError {
            throw Problem.badRequest("the body is not JSON: \(error)")
        } catch let error as JSONFieldError {
            throw Problem.badRequest(error.description, field: Self.field(error))
        } catch let problem as Problem {
            var named = problem
            named.field = "content"
            throw named
        } catch {
            throw Problem.badRequest("\(error)")
        }
    }

    /// The request's member at fault: "$.content" → "content", and a missing member's name.
    static func field(_ error: JSONFieldError) -> String? {
        let missing = "missing required member \""
        if error.path == "$", error.message.hasPrefix(missing) {
            return String(error.message.dropFirst(missing.count).prefix { $0 != "\"" })
        }
        guard error.path.hasPrefix("$.") else { return nil }
        return String(error.path.dropFirst(2).prefix { $0 != "." && $0 != "[" })
    }
}

/// `POST /api/v1/display/{on|off}`'s optional body: `{"output": …}`.
func displayOutput(json bytes: [UInt8]) throws(Problem) -> String? {
    guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return nil }
    do {
        let root = JSONField(root: try parseJSON(bytes))
        try root.rejectUnknownMembers(allowed: ["output"])
        return try root.optional("output")?.string()
    } catch let error as JSONSyntaxError {
        throw Problem.badRequest("the body is not JSON: \(error)")
    } catch let error as JSONFieldError {
        throw Problem.badRequest(error.description, field: ShowRequest.field(error))
    } catch {
        throw Problem.badRequest("\(error)")
    }
}
