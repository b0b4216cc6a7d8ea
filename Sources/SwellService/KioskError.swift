import SwellSystem

/// A kiosk failure the user can act on: what went wrong, on which device, and the fix.
public struct KioskError: Error, CustomStringConvertible, Sendable {
    /// The class of failure; the command line maps each to an exit status.
    public enum Kind: Sendable {
        /// No DRM device or framebuffer (or no input device when one is required).
        case noDevice
        /// The device exists but this user may not open it.
        case permissionDenied
        /// Another process (a desktop's DRM master) holds the device.
        case busy
        /// The named connector does not exist, or the display there cannot be driven as asked.
        case noConnector
        /// A card is there but no display is connected to it (or to the named connector): a
        /// kiosk that booted before its screen was switched on may wait for one.
        case displayDisconnected
        /// The requested mode is not one the connector offers.
        case modeNotOffered
        /// A bad option value.
        case usage
        /// A system call failed part-way (mapping, flipping, reading).
        case io
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The standard advice for a failed open of a device node.
    public static func opening(_ path: String, _ error: Errno, group: String) -> KioskError {
        switch error {
        case .accessDenied, .notPermitted:
            KioskError(
                .permissionDenied,
                "\(path): \(error.message); add the user to the '\(group)' group (then log in again) or run as root")
        case .noEntry, .noDevice, .noSuchDeviceOrAddress:
            KioskError(.noDevice, "\(path): \(error.message); is the driver loaded and the device present?")
        case .busy:
            KioskError(.busy, "\(path): device busy; another program holds it")
        default:
            KioskError(.io, "\(path): \(error)")
        }
    }
}
