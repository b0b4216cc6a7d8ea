/// The checksum as hex digits, the form checksum files hold (no zero padding, as `swell bench`
/// writes). The checksum itself is SwellOutput's `checksum` (FNV-1a over the visible pixels, X
/// bytes included), the fingerprint `swell bench` prints, so one checksums file serves both.
func hexDigits(_ value: UInt64) -> String {
    String(value, radix: 16)
}
