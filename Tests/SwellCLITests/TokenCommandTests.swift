import Foundation
import Testing

/// `swell token add|list|remove|certificate --tokens FILE`: a token printed once, only its hash
/// stored; names refused twice; the certificate made once and its fingerprint printed.
@Suite struct TokenCommandTests {
    @Test func addListRemove() throws {
        let folder = try temporaryFolder()
        let file = folder + "/api/tokens.json"
        let added = try SwellProcess.run(["token", "add", "laptop", "--tokens", file])
        #expect(added.status == 0, "\(added.stderr)")
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("swell_") && token.count == 62, "\(token)")
        let stored = try String(contentsOfFile: file, encoding: .utf8)
        #expect(stored.contains("\"laptop\"") && stored.contains("$argon2id$") && !stored.contains(token))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try SwellProcess.run(["token", "add", "laptop", "--tokens", file])
        #expect(again.status == 65 && again.stderr.contains("remove it first"), "\(again.stderr)")
        #expect(try SwellProcess.run(["token", "add", "a b", "--tokens", file]).status == 64)
        #expect(try SwellProcess.run(["token", "add", "phone", "--tokens", file]).status == 0)
        let listed = try SwellProcess.run(["token", "list", "--tokens", file])
        #expect(listed.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["laptop", "phone"])
        #expect(!listed.stdout.contains(token))
        #expect(try SwellProcess.run(["token", "remove", "laptop", "--tokens", file]).status == 0)
        let missing = try SwellProcess.run(["token", "remove", "laptop", "--tokens", file])
        #expect(missing.status == 65 && missing.stderr.contains("it has phone"), "\(missing.stderr)")
        #expect(try SwellProcess.run(["token", "list"]).status == 64)
    }

    @Test func theCertificateIsMadeOnceAndNamedByItsFingerprint() throws {
        let folder = try temporaryFolder()
        let first = try SwellProcess.run(["token", "certificate", "--tokens", folder + "/tokens.json"])
        #expect(first.status == 0, "\(first.stderr)")
        let fingerprint = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(fingerprint.count == 95 && fingerprint.split(separator: ":").count == 32, "\(fingerprint)")
        let key = try FileManager.default.attributesOfItem(atPath: folder + "/api-key.pem")[.posixPermissions] as? Int
        #expect(key == 0o600)
        let second = try SwellProcess.run(["token", "certificate", "--tokens", folder + "/tokens.json"])
        #expect(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == fingerprint)
        #expect(second.stderr.contains("was there"))
    }
}
