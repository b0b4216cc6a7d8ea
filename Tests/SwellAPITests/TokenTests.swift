import SwellAPI
import SwellSystem
import Testing

@Suite struct TokenTests {
    @Test func aTokenNamesItsIdAndMatchesOnlyItsHash() {
        let made = Tokens.make(name: "alice", now: 1000)
        #expect(made.token.hasPrefix("swell_"))
        #expect(made.token.count == 6 + 12 + 1 + 43)
        #expect(Tokens.id(of: made.token) == made.record.id)
        #expect(made.record.hash.hasPrefix("$argon2id$"))
        #expect(!made.record.hash.contains(made.token))
        #expect(Tokens.matches(made.token, hash: made.record.hash))
        var wrong = Array(made.token)
        wrong[wrong.count - 1] = wrong[wrong.count - 1] == "A" ? "B" : "A"
        #expect(!Tokens.matches(String(wrong), hash: made.record.hash))
        #expect(Tokens.id(of: "swell_short_x") == nil)
        #expect(Tokens.id(of: "Bearer") == nil)
    }

    @Test func twoTokensDiffer() {
        let first = Tokens.make(name: "a", now: 0)
        let second = Tokens.make(name: "a", now: 0)
        #expect(first.token != second.token)
        #expect(first.record.hash != second.record.hash)
    }

    @Test func theFileRoundTripsAndRefusesOtherFormats() throws {
        let records = [
            TokenRecord(name: "alice", id: "0123456789ab", hash: "$argon2id$v=19$x", created: 1_796_000_000),
            TokenRecord(name: "bob \"quoted\"", id: "ba9876543210", hash: "$argon2id$v=19$y", created: 5),
        ]
        let text = TokenFile.text(records)
        #expect(try TokenFile.parse(Array(text.utf8), path: "t.json") == records)
        let wrongFormat = #"{"format": "tokens/2", "tokens": []}"#
        #expect(throws: TokenFileError.self) { try TokenFile.parse(Array(wrongFormat.utf8), path: "t.json") }
        let clear = #"{"format": "tokens/1", "tokens": [{"name": "a", "id": "x", "hash": "secret"}]}"#
        #expect(throws: TokenFileError.self) { try TokenFile.parse(Array(clear.utf8), path: "t.json") }
        #expect(throws: TokenFileError.self) { try TokenFile.parse(Array("{".utf8), path: "t.json") }
    }

    @Test func theVerifierTakesRightTokensAndForgetsRemovedOnes() throws {
        let folder = try temporaryFolder()
        let path = folder + "/tokens.json"
        let alice = Tokens.make(name: "alice", now: 0)
        let bob = Tokens.make(name: "bob", now: 0)
        try TokenFile.write([alice.record, bob.record], to: path)
        #expect((try fileStatusMode(path)) == 0o600)
        let verifier = try TokenVerifier(path: path)
        #expect(verifier.verify(alice.token) == "alice")
        // Remembered now: the same answer from the cache.
        #expect(verifier.verify(alice.token) == "alice")
        #expect(verifier.verify(bob.token) == "bob")
        #expect(verifier.verify(alice.token + "x") == nil)
        #expect(verifier.verify("") == nil)
        #expect(verifier.verify(Tokens.make(name: "eve", now: 0).token) == nil)
        // Revoked: gone from the file, refused at once, even though it was remembered.
        try TokenFile.write([bob.record], to: path)
        #expect(verifier.verify(alice.token) == nil)
        #expect(verifier.verify(bob.token) == "bob")
        // A broken file fails closed.
        try writePrivateFileAtomically(Array("not json".utf8), to: path)
        #expect(verifier.verify(bob.token) == nil)
    }

    @Test func aWrongTokenCostsAHashWhateverItIs() throws {
        let folder = try temporaryFolder()
        let path = folder + "/tokens.json"
        let alice = Tokens.make(name: "alice", now: 0)
        try TokenFile.write([alice.record], to: path)
        let verifier = try TokenVerifier(path: path)
        // A wrong secret with the right id, an unknown id, and no token shape at all: each is
        // checked against a hash (the record's or the decoy's), so none is answered at once.
        let candidates = [
            "swell_\(alice.record.id)_" + String(repeating: "A", count: 43),
            Tokens.make(name: "x", now: 0).token, "x",
        ]
        for (index, candidate) in candidates.enumerated() {
            #expect(verifier.verify(candidate) == nil)
            #expect(verifier.hashChecks == index + 1, "\(candidate.prefix(8))")
        }
        // The right token: one check, then remembered (no more).
        #expect(verifier.verify(alice.token) == "alice")
        #expect(verifier.verify(alice.token) == "alice")
        #expect(verifier.hashChecks == candidates.count + 1)
    }
}

func temporaryFolder() throws -> String {
    let path = "/tmp/swell-api-tests-\(currentProcessID())-\(Int(monotonicSeconds() * 1e6))"
    try makeDirectory(path)
    return path
}

func fileStatusMode(_ path: String) throws -> UInt32 {
    let fd = try FileDescriptor.open(path, 0)
    defer { fd.close() }
    return UInt32(try fd.status().st_mode) & 0o777
}
