import CGnuTLS
import SwellSystem

/// The certificate a kiosk serves HTTPS with when its admin gave none: an ECDSA P-256 key and a
/// self-signed certificate for the host's name and localhost, made with GnuTLS and valid ten
/// years. Browsers warn about it until it is trusted (or pinned by its fingerprint, which the
/// journal prints); a site's own certificate replaces it (`certificate`, `key`).
public enum SelfSignedCertificate {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A new key and certificate for `names` (the first is the common name).
    public static func make(names: [String], now: Double = realtimeSeconds()) throws(Failure) -> TLSIdentity {
        func check(_ result: Int32, _ step: String) throws(Failure) {
            guard result >= 0 else {
                throw Failure(description: "\(step): \(String(cString: gnutls_strerror(result)))")
            }
        }
        var key: gnutls_x509_privkey_t?
        var certificate: gnutls_x509_crt_t?
        defer {
            if let certificate { gnutls_x509_crt_deinit(certificate) }
            if let key { gnutls_x509_privkey_deinit(key) }
        }
        try check(gnutls_x509_privkey_init(&key), "cannot make a key")
        // GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), a macro Swift cannot call.
        let curve = UInt32(1) << 31 | GNUTLS_ECC_CURVE_SECP256R1.rawValue
        try check(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, curve, 0), "cannot make a key")
        try check(gnutls_x509_crt_init(&certificate), "cannot make a certificate")
        try check(gnutls_x509_crt_set_version(certificate, 3), "certificate version")
        var serial = Tokens.randomBytes(16)
        serial[0] &= 0x7F
        try check(gnutls_x509_crt_set_serial(certificate, serial, serial.count), "certificate serial")
        try check(gnutls_x509_crt_set_activation_time(certificate, time_t(now - 86400)), "certificate start")
        try check(gnutls_x509_crt_set_expiration_time(certificate, time_t(now + 3650 * 86400)), "certificate end")
        let commonName = names.first ?? "swell"
        try check(
            gnutls_x509_crt_set_dn_by_oid(
                certificate, GNUTLS_OID_X520_COMMON_NAME, 0, commonName, UInt32(commonName.utf8.count)),
            "certificate name")
        for (index, name) in names.enumerated() {
            try check(
                gnutls_x509_crt_set_subject_alt_name(
                    certificate, GNUTLS_SAN_DNSNAME, name, UInt32(name.utf8.count),
                    UInt32(index == 0 ? GNUTLS_FSAN_SET : GNUTLS_FSAN_APPEND)), "certificate names")
        }
        try check(gnutls_x509_crt_set_key(certificate, key), "certificate key")
        try check(gnutls_x509_crt_set_basic_constraints(certificate, 0, -1), "certificate constraints")
        try check(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)), "key usage")
        try check(gnutls_x509_crt_set_key_purpose_oid(certificate, GNUTLS_KP_TLS_WWW_SERVER, 0), "key purpose")
        try check(gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0), "cannot sign")
        var buffer = [UInt8](repeating: 0, count: 8192)
        var size = buffer.count
        try check(gnutls_x509_crt_export(certificate, GNUTLS_X509_FMT_PEM, &buffer, &size), "certificate export")
        let certificateText = String(decoding: buffer[..<size], as: UTF8.self)
        size = buffer.count
        try check(gnutls_x509_privkey_export(key, GNUTLS_X509_FMT_PEM, &buffer, &size), "key export")
        let keyText = String(decoding: buffer[..<size], as: UTF8.self)
        return TLSIdentity(certificate: certificateText, key: keyText)
    }

    /// The SHA-256 fingerprint of the first certificate of `pem` ("AB:CD:…"), as browsers show it.
    public static func fingerprint(_ pem: String) -> String? {
        var certificate: gnutls_x509_crt_t?
        guard gnutls_x509_crt_init(&certificate) >= 0 else { return nil }
        defer { gnutls_x509_crt_deinit(certificate) }
        var bytes = Array(pem.utf8)
        let imported = bytes.withUnsafeMutableBytes { raw in
            var datum = gnutls_datum_t(
                data: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: UInt32(raw.count))
            return gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_PEM)
        }
        guard imported >= 0 else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        var size = digest.count
        guard gnutls_x509_crt_get_fingerprint(certificate, GNUTLS_DIG_SHA256, &digest, &size) >= 0 else { return nil }
        let digits = Array("0123456789ABCDEF")
        return digest[..<size].map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: ":")
    }
}
