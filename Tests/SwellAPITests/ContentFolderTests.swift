import SwellAPI
import SwellSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ContentFolderTests {
    /// A content folder with menu.json, a link out to a sentinel folder beside it, and the folder.
    private func makeFolder() throws -> (folder: ContentFolder, root: String, outside: String) {
        let base = try temporaryFolder()
        let root = base + "/content"
        let outside = base + "/outside"
        try makeDirectory(root)
        try makeDirectory(outside)
        try writeFileAtomically(Array("secret".utf8), at: outside + "/secret.txt")
        try writeFileAtomically(Array("{}".utf8), at: root + "/menu.json")
        #expect(symlink(outside, root + "/out") == 0)
        #expect(symlink(outside + "/secret.txt", root + "/secret-link.txt") == 0)
        return (try ContentFolder(root, uploadLimit: 1 << 20), canonicalPath(root)!, outside)
    }

    @Test func findsFilesInsideAndRefusesLinksOut() throws {
        let (folder, root, _) = try makeFolder()
        #expect(try folder.existing(ContentPath("menu.json")) == root + "/menu.json")
        // Through the link out, a name that exists there and one that does not get the same answer.
        for path in ["out/secret.txt", "secret-link.txt", "out/no-such-file.txt", "out/no/such/file"] {
            let refused = #expect(throws: Problem.self) { try folder.existing(ContentPath(path)) }
            #expect(refused?.status == 400, "\(path)")
        }
        #expect(throws: Problem.self) { try folder.existing(ContentPath("missing.json")) }
        #expect(throws: Problem.self) { try folder.target(ContentPath("out/new.txt")) }
        // Listed: the file, not the links out.
        #expect(folder.list().map(\.path) == ["menu.json"])
    }

    @Test func anUploadAppearsWholeOnlyOnceChecked() throws {
        let (folder, root, outside) = try makeFolder()
        let upload = try folder.upload(ContentPath("text/prices.txt")) { _, _ in nil }
        let chunk: [UInt8] = Array("Espresso 2.50\n".utf8)
        #expect(chunk.withUnsafeBytes { upload.write($0) } == nil)
        // Not there until whole.
        #expect(!fileExists(root + "/text/prices.txt"))
        #expect(try directoryNames(root + "/text").count == 1)
        let answer = upload.finish()
        #expect(answer.status == 201)
        #expect(try readWholeFile(root + "/text/prices.txt") == chunk)
        #expect(try directoryNames(root + "/text") == ["prices.txt"])
        #expect(try directoryNames(outside) == ["secret.txt"])
    }

    @Test func aRefusedOrCutOffUploadLeavesNothing() throws {
        let (folder, root, _) = try makeFolder()
        let refused = try folder.upload(ContentPath("menu.json")) { _, _ in Problem.unprocessable("no") }
        #expect(Array("new".utf8).withUnsafeBytes { refused.write($0) } == nil)
        #expect(refused.finish().status == 422)
        #expect(try readWholeFile(root + "/menu.json") == Array("{}".utf8))
        let cut = try folder.upload(ContentPath("menu.json")) { _, _ in nil }
        #expect(Array("half".utf8).withUnsafeBytes { cut.write($0) } == nil)
        cut.abandon()
        #expect(try readWholeFile(root + "/menu.json") == Array("{}".utf8))
        #expect(try directoryNames(root).sorted() == ["menu.json", "out", "secret-link.txt"])
    }

    @Test func staleUploadsGoAtStart() throws {
        let (folder, root, _) = try makeFolder()
        try makeDirectory(root + "/sub")
        try writeFileAtomically(Array("x".utf8), at: root + "/.swell-upload-0011-menu.json")
        try writeFileAtomically(Array("x".utf8), at: root + "/sub/.swell-upload-22-a.txt")
        folder.removeStaleUploads()
        #expect(!fileExists(root + "/.swell-upload-0011-menu.json"))
        #expect(!fileExists(root + "/sub/.swell-upload-22-a.txt"))
        #expect(fileExists(root + "/menu.json"))
    }

    @Test func theAPIsOwnFilesAreNotContentEvenInsideTheFolder() throws {
        let base = try temporaryFolder()
        let root = base + "/content"
        try makeDirectory(root)
        try makeDirectory(root + "/api")
        for name in ["menu.json", "api/tokens.json", "api/api-key.pem"] {
            try writeFileAtomically(Array("{}".utf8), at: root + "/" + name)
        }
        // The certificate is not made yet: named all the same.
        let folder = try ContentFolder(
            root,
            privateFiles: [root + "/api/tokens.json", root + "/api/api-key.pem", root + "/api/api-certificate.pem"])
        #expect(folder.list().map(\.path) == ["menu.json"])
        for name in ["api/tokens.json", "api/api-key.pem"] {
            let path = try ContentPath(name)
            #expect(throws: Problem.self) { try folder.existing(path) }
            #expect(throws: Problem.self) { try folder.target(path) }
            #expect(throws: Problem.self) { try folder.delete(path) }
        }
        #expect(throws: Problem.self) { try folder.target(ContentPath("api/api-certificate.pem")) }
        #expect(try readWholeFile(root + "/api/tokens.json") == Array("{}".utf8))
        #expect(try folder.target(ContentPath("api/notes.txt")).file.hasSuffix("/api/notes.txt"))
    }

    @Test func deleteRemovesALinkNotWhatItNames() throws {
        let (folder, root, _) = try makeFolder()
        try folder.delete(ContentPath("menu.json"))
        #expect(!fileExists(root + "/menu.json"))
        #expect(throws: Problem.self) { try folder.delete(ContentPath("secret-link.txt")) }
    }
}

private func writeFileAtomically(_ bytes: [UInt8], at path: String) throws {
    try bytes.withUnsafeBytes { try SwellSystem.writeFileAtomically($0, toPath: path) }
}
