import SwellJSON

/// An error answer as RFC 9457's `application/problem+json`, naming the field at fault.
public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var title: String
    public var detail: String
    /// The request's field at fault ("content", "output", "path"), when one is.
    public var field: String?
    public var headers: [HTTPResponse.Header] = []

    public init(status: Int, title: String, detail: String, field: String? = nil) {
        self.status = status
        self.title = title
        self.detail = detail
        self.field = field
    }

    public var description: String { "\(status) \(title): \(detail)" }

    public var response: HTTPResponse {
        var members: [(String, JSONOut)] = [
            ("type", .string("about:blank")), ("title", .string(title)), ("status", .int(status)),
            ("detail", .string(detail)),
        ]
        if let field { members.append(("field", .string(field))) }
        return HTTPResponse(
            status: status, contentType: "application/problem+json", body: Array(JSONOut.object(members).text.utf8),
            headers: headers)
    }

    public static func badRequest(_ detail: String, field: String? = nil) -> Problem {
        Problem(status: 400, title: "Bad Request", detail: detail, field: field)
    }

    public static func notFound(_ detail: String, field: String? = nil) -> Problem {
        Problem(status: 404, title: "Not Found", detail: detail, field: field)
    }

    public static func unprocessable(_ detail: String, field: String? = nil) -> Problem {
        Problem(status: 422, title: "Unprocessable Content", detail: detail, field: field)
    }
}

/// A JSON document to write (the API's answers).
public indirect enum JSONOut: Sendable, Equatable {
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONOut])
    case object([(String, JSONOut)])

    public static func == (a: JSONOut, b: JSONOut) -> Bool { a.text == b.text }

    public var text: String {
        switch self {
        case .string(let value): jsonString(value)
        case .number(let value): value.isFinite ? numberText(value) : "null"
        case .int(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array(let values): "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { jsonString($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    /// An optional number: null when absent.
    public static func number(_ value: Double?) -> JSONOut { value.map { .number($0) } ?? .null }
    public static func string(_ value: String?) -> JSONOut { value.map { .string($0) } ?? .null }
}

/// Milliseconds and seconds to three decimals: short, and exact enough for figures.
private func numberText(_ value: Double) -> String {
    // Beyond 1e15 there are no decimals to round (and value * 1000 could overflow to inf).
    guard abs(value) < 1e15 else { return "\(value)" }
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return "\(rounded)"
}
