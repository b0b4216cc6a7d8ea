import SwellAPI
import SwellPlayer
import SwellSystem

let tokenVerb = Verb(
    name: "token",
    summary: "make, list and revoke the management API's tokens",
    synopsis: "add NAME --tokens FILE | list --tokens FILE | remove NAME --tokens FILE | certificate --tokens FILE",
    details: """
        The management API (swell run --api ADDRESS:PORT --api-tokens FILE, or a kiosk file's
        "api") serves only requests that carry one of FILE's tokens: Authorization: Bearer TOKEN.
        'add NAME' makes a token, prints it once on standard output and stores only its salted
        hash (libsodium's crypto_pwhash, Argon2id) under NAME; keep the token in a password
        manager, since it cannot be shown again. 'remove NAME' revokes it: a running kiosk stops
        taking it at once. FILE is written whole or not at all, readable by its owner alone.
        'certificate' makes the self-signed certificate the API serves HTTPS with when the kiosk
        file names none (api-certificate.pem and api-key.pem beside FILE, as the first start
        would; the package does it at install) and prints its SHA-256 fingerprint, which a
        browser shows: compare the two before trusting it.
        Exit status: 64 for a usage mistake, 65 for a tokens file that is not one, 73 when FILE
        cannot be written.
        """,
    options: [.option("tokens", "FILE", "the tokens file (tokens/1), made by the first add")],
    run: runToken)

private func runToken(_ arguments: ParsedArguments) throws -> Int32 {
    guard let file = arguments["tokens"] else {
        throw CommandFailure(ExitStatus.usage, "give the tokens file: --tokens FILE (e.g. /etc/swell/tokens.json)")
    }
    let action = arguments.positional.first ?? ""
    let records: [TokenRecord]
    do {
        records = try TokenFile.read(file)
    } catch {
        throw CommandFailure(ExitStatus.dataError, error.description)
    }
    switch (action, arguments.positional.count) {
    case ("add", 2):
        let name = arguments.positional[1]
        guard isTokenName(name) else {
            throw CommandFailure(
                ExitStatus.usage, "token name \"\(name)\": use 1 to 64 letters, digits, '.', '-', '_' or '@'")
        }
        guard !records.contains(where: { $0.name == name }) else {
            throw CommandFailure(
                ExitStatus.dataError,
                "\(file) has a token named \(name) already; remove it first (swell token remove \(name) --tokens \(file))"
            )
        }
        let made = Tokens.make(name: name, now: realtimeSeconds())
        try write(records + [made.record], to: file)
        printNow(made.token)
        printError("swell token: added \(name) to \(file); the token above is shown only now")
    case ("list", 1):
        for record in records {
            printNow("\(record.name)\tswell_\(record.id)_…\tmade \(describeLocal(record.created))")
        }
        if records.isEmpty { printError("swell token: \(file) has no tokens; make one with swell token add NAME") }
    case ("certificate", 1):
        var settings = ManagementSettings(address: "0.0.0.0", port: 1, tokens: file)
        settings.certificate = nil
        let paths = tlsFiles(settings)
        let made = try makeSelfSignedPair(certificate: paths.certificate, key: paths.key)
        let text: String
        do {
            text = String(decoding: try readWholeFile(paths.certificate, limit: 1 << 20), as: UTF8.self)
        } catch {
            throw CommandFailure(ExitStatus.noInput, "\(paths.certificate): cannot read: \(error)")
        }
        printNow(SelfSignedCertificate.fingerprint(text) ?? "unknown")
        printError(
            "swell token: "
                + (made.map { "made \(paths.certificate) for \($0.joined(separator: ", "))" }
                    ?? "\(paths.certificate) was there") + "; the line above is its SHA-256")
        return ExitStatus.success
    case ("remove", 2):
        let name = arguments.positional[1]
        guard records.contains(where: { $0.name == name }) else {
            let names = records.map(\.name).joined(separator: ", ")
            throw CommandFailure(
                ExitStatus.dataError, "\(file) has no token named \(name)" + (names.isEmpty ? "" : "; it has \(names)"))
        }
        try write(records.filter { $0.name != name }, to: file)
        printError("swell token: removed \(name) from \(file)")
    default:
        throw CommandFailure(
            ExitStatus.usage, "expected add NAME, list, remove NAME or certificate (see swell token --help)")
    }
    return ExitStatus.success
}

private func write(_ records: [TokenRecord], to file: String) throws {
    // The folder of a first token (/var/lib/swell/api), readable by its owner alone.
    if let slash = file.lastIndex(of: "/"), slash != file.startIndex, !fileExists(String(file[..<slash])) {
        try? makeDirectory(String(file[..<slash]), permissions: 0o700)
    }
    do {
        try TokenFile.write(records, to: file)
    } catch {
        throw CommandFailure(ExitStatus.cannotCreate, error.description)
    }
}

/// Letters, digits and . - _ @, 1 to 64 of them: a name that reads in a log line.
func isTokenName(_ name: String) -> Bool {
    (1...64).contains(name.count)
        && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_@".unicodeScalars.contains($0))
        }
}
