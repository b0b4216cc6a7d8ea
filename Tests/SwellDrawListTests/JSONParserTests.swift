import SwellJSON
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValueKeepingMemberOrder() throws {
        let value = try parseJSON(#"{"b": [1, -2.5e3, true, false, null], "a": "x\u00e9\n\ud83d\ude00", "c": {}}"#)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["b"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(object["a"] == .string("xé\n😀"))
        #expect(object["c"] == .object(JSONObject()))
    }

    @Test(arguments: [
        ("", "empty"),
        ("{", "end of file"),
        ("[1,]", "trailing comma"),
        (#"{"a":1,}"#, "trailing comma"),
        ("[NaN]", "NaN and Infinity"),
        ("[-Infinity]", "NaN and Infinity"),
        ("[01]", "leading zeros"),
        ("[1.]", "digits after '.'"),
        (#"["a"#, "unterminated string"),
        (#"{"a" 1}"#, "expected ':'"),
        ("[1] x", "after the end"),
        ("// c\n[1]", "comments"),
        (#"["\x"]"#, "unknown escape"),
        (#"["\ud800"]"#, "surrogate"),
    ])
    func rejectsMalformedTextWithAPosition(text: String, expected: String) {
        do {
            _ = try parseJSON(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(expected), "\(error)")
            #expect(error.line >= 1 && error.column >= 1)
        }
    }

    @Test func reportsLineAndColumn() {
        do {
            _ = try parseJSON("{\n  \"a\": 1,\n  \"b\": ?\n}")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try parseJSON(text) }
    }

    @Test func overflowingNumbersParseAsInfinityForTheValidatorToName() throws {
        let value = try parseJSON("[1e999]")
        #expect(value == .array([.number(.infinity)]))
        let field = try JSONField(root: value).array()[0]
        #expect(throws: JSONFieldError(path: "$[0]", message: "expected a finite number, got inf")) {
            try field.number()
        }
    }

    @Test func colourFieldsAcceptArraysAndHex() throws {
        let value = try parseJSON(##"[[1, 0.5, 0], "#FF8000", "#00000080", "#12345", [2, 0, 0]]"##)
        let fields = try JSONField(root: value).array()
        #expect(try fields[0].color() == (1, 0.5, 0, 1))
        let hex = try fields[1].color()
        #expect(hex.r == 1 && abs(hex.g - 128.0 / 255) < 1e-12 && hex.b == 0 && hex.a == 1)
        #expect(abs(try fields[2].color().a - 128.0 / 255) < 1e-12)
        #expect(throws: JSONFieldError.self) { try fields[3].color() }
        #expect(throws: JSONFieldError(path: "$[4][0]", message: "expected a number in 0...1, got 2")) {
            try fields[4].color()
        }
    }
}
