import Foundation
import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import SwellSystem
import Testing

/// systemd's notification protocol as Swell speaks it, received on a real AF_UNIX datagram
/// socket (the one systemd binds is the same kind: /run/systemd/notify).
@Suite struct ServiceNotifierTests {
    @Test func environmentDecidesWhetherAndHowToNotify() throws {
        #expect(ServiceNotifier(environment: [:]) == nil)
        #expect(ServiceNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]) == nil)
        #expect(ServiceNotifier(environment: ["NOTIFY_SOCKET": "vsock:2:1234"]) == nil)
        #expect(ServiceNotifier(environment: ["NOTIFY_SOCKET": "@"]) == nil)
        let plain = try #require(ServiceNotifier(environment: ["NOTIFY_SOCKET": "/run/systemd/notify"]))
        #expect(plain.watchdogSeconds == nil && plain.keepAliveInterval == nil)
        #expect(plain.secondsUntilKeepAlive() == nil)
        let watched = try #require(
            ServiceNotifier(environment: ["NOTIFY_SOCKET": "@abstract", "WATCHDOG_USEC": "30000000"]))
        #expect(watched.watchdogSeconds == 30 && watched.keepAliveInterval == 7.5)
        // A watchdog meant for another process (systemd passes WATCHDOG_PID down to children).
        let other = try #require(
            ServiceNotifier(
                environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"],
                processID: 4242))
        #expect(other.watchdogSeconds == nil)
        let ours = try #require(
            ServiceNotifier(
                environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "500000", "WATCHDOG_PID": "4242"],
                processID: 4242))
        #expect(ours.watchdogSeconds == 0.5)
        #expect(
            try #require(ServiceNotifier(environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "0"])).watchdogSeconds
                == nil)
    }

    @Test(arguments: [false, true]) func readyStatusAndStoppingReachTheSocket(abstract: Bool) throws {
        let receiver = try DatagramReceiver(abstract: abstract)
        defer { receiver.close() }
        let notifier = try #require(ServiceNotifier(environment: ["NOTIFY_SOCKET": receiver.name]))
        notifier.ready(status: "running ripples on card0 Virtual-1 1920x1080@75 (drm)")
        notifier.status("Virtual-1 disconnected;\nstill running")
        notifier.stopping()
        #expect(
            receiver.drain() == [
                "READY=1\nSTATUS=running ripples on card0 Virtual-1 1920x1080@75 (drm)",
                "STATUS=Virtual-1 disconnected; still running",
                "STOPPING=1\nSTATUS=stopping: giving the display back",
            ])
    }

    @Test func keepAlivesGoOutOncePerQuarterOfTheWatchdogTime() throws {
        let receiver = try DatagramReceiver(abstract: false)
        defer { receiver.close() }
        let notifier = try #require(
            ServiceNotifier(environment: ["NOTIFY_SOCKET": receiver.name, "WATCHDOG_USEC": "4000000"]))
        // The interval counts from the notifier's creation, just before this.
        let start = monotonicSeconds()
        // A quarter of 4 s: nothing is due for a second after start.
        notifier.keepAlive(now: start)
        #expect(receiver.drain().isEmpty)
        let wait = try #require(notifier.secondsUntilKeepAlive(now: start))
        #expect(wait > 0.9 && wait <= 1.0)
        notifier.keepAlive(now: start + 1.01)
        notifier.keepAlive(now: start + 1.5)
        #expect(receiver.drain() == ["WATCHDOG=1"])
        #expect(try #require(notifier.secondsUntilKeepAlive(now: start + 2.5)) == 0)
        notifier.keepAlive(now: start + 2.5)
        #expect(receiver.drain() == ["WATCHDOG=1"])
    }

    /// The point of the watchdog: an idle kiosk sleeps, but not past a keep-alive, and a loop
    /// that ends says so.
    @Test func anIdleLoopWakesForTheWatchdogAndSaysItStops() throws {
        let receiver = try DatagramReceiver(abstract: false)
        defer { receiver.close() }
        let notifier = try #require(
            ServiceNotifier(environment: ["NOTIFY_SOCKET": receiver.name, "WATCHDOG_USEC": "400000"]))
        let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4)
        let loop = try KioskLoop(
            presenter: presenter, input: nil, console: nil, notifier: notifier, followsTheMachine: false)
        var renders = 0
        let end = try loop.run(TestContent(idle: { _ in true }) { _, _ in renders += 1 }, seconds: 0.8)
        #expect(end == .timeUp && renders == 1)
        let messages = receiver.drain()
        // One every 0.1 s of the 0.8 s asleep; without the wake-ups there would be none.
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 4, "\(messages)")
        #expect(messages.last == "STOPPING=1\nSTATUS=stopping: giving the display back")
    }
}

/// A bound AF_UNIX datagram socket (a file in a temporary folder, or an abstract name) standing
/// in for systemd's notification socket.
struct DatagramReceiver {
    let fd: Int32
    /// As NOTIFY_SOCKET spells it.
    let name: String

    init(abstract: Bool) throws {
        let unique = "swell-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        name = abstract ? "@" + unique : NSTemporaryDirectory() + unique + ".sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(name.utf8)
        if abstract { path[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// Every datagram queued so far.
    func drain() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count >= 0 else { return messages }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
    }

    func close() {
        _ = Glibc.close(fd)
        if !name.hasPrefix("@") { unlink(name) }
    }
}
