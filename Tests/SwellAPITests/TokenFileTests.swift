import SwellAPI
import Testing

@Suite struct TokenFileTests {
    static func file(created: String) -> [UInt8] {
        Array(
            #"{"format": "tokens/1", "tokens": [{"name": "a", "id": "0123456789ab", "hash": "$argon2id$v=19$x", "created": \#(created)}]}"#
                .utf8)
    }

    @Test func readsBackWhatItWrites() throws {
        let records = try TokenFile.parse(Self.file(created: "1796454266.5"), path: "tokens.json")
        #expect(records.map(\.created) == [1_796_454_266.5])
        let again = try TokenFile.parse(Array(TokenFile.text(records).utf8), path: "tokens.json")
        #expect(again.map(\.created) == [1_796_454_266])
        #expect(again.map(\.hash) == records.map(\.hash))
    }

    /// Found with scripts/fuzz's tokens-file loader (an input written for it): a "created" past
    /// Int's range trapped in `text` (swell token add, remove) and in swell token list's date.
    @Test func refusesACreationTimeOutOfRange() {
        for created in ["1e300", "-1", "253402300800"] {
            #expect(throws: TokenFileError.self) {
                try TokenFile.parse(Self.file(created: created), path: "tokens.json")
            }
        }
    }
}
