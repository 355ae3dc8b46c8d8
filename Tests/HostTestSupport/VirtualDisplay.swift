import Foundation
import Glibc

import HostContainer
import Renderer
import TestSupport

/// An X server of the test's own (Xvfb) and the X tools that drive and
/// photograph windows on it (xdotool, xwd).
public final class VirtualDisplay {
    public let name: String
    private let server: Process

    /// The tools, as Debian's xvfb, xdotool, x11-apps and xterm install them.
    public static func has(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) }
    public static let available = ["Xvfb", "xdotool", "xwd"].allSatisfy(has)
    public static let hasSDL = dlopen("libSDL2-2.0.so.0", RTLD_LAZY) != nil
    public static let skipNote = "skipped: needs Xvfb, xdotool, xwd and SDL2 (apt-get install xvfb xdotool x11-apps libsdl2-2.0-0; .ci/run does)"

    /// Xvfb chooses a display number no server listens on (`-displayfd`) and
    /// says it once it accepts connections. Choosing one here raced: two
    /// displays made at once could be given the same number, and the test
    /// whose own server had failed to start talked to the other one's, until
    /// that test ended and took it away ("Can't open display").
    ///
    /// It never resets (`-noreset`): by default an X server resets when its
    /// last client leaves, and the reset drops a client that connected
    /// meanwhile before its setup was answered (xorg/xserver#1102). The tests
    /// poll with xdotool, a client that comes and goes, while a terminal or
    /// window connects: xterm was dropped so, now and then ("Can't open
    /// display" with its own server running).
    ///
    /// Its screen is `width` x `height` pixels: a window larger is cut to it by its toolkit.
    public init(width: Int = 1200, height: Int = 1000) throws {
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = ["-displayfd", "1", "-noreset", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        server.environment = guardedEnvironment()
        let announced = Pipe()
        server.standardOutput = announced
        server.standardError = FileHandle.nullDevice
        try server.run()
        let reader = announced.fileHandleForReading.fileDescriptor
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.hasSuffix("\n") {
            var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var byte: UInt8 = 0
            guard poll(&poller, 1, left) > 0, read(reader, &byte, 1) == 1 else {
                server.terminate()
                throw POSIXError(.ETIMEDOUT)
            }
            text.append(Character(UnicodeScalar(byte)))
        }
        guard let number = Int(text.dropLast()) else { throw POSIXError(.EPROTO) }
        name = ":\(number)"
    }

    deinit {
        server.terminate()
        let deadline = Date().addingTimeInterval(5)
        while server.isRunning && Date() < deadline { usleep(10_000) }
        if server.isRunning { kill(server.processIdentifier, SIGKILL) }
    }

    /// Runs an X tool against this display: its exit status and what it wrote
    /// to standard output, as bytes (xwd writes a binary picture; only callers
    /// that expect text decode it, with ``text(_:)``).
    @discardableResult
    public func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, data: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
        process.arguments = arguments
        process.environment = guardedEnvironment().merging(["DISPLAY": self.name]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 15, execute: watchdog)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, data)
    }

    /// What an X tool that prints text (xdotool) printed.
    public func text(_ name: String, _ arguments: [String]) throws -> String {
        String(decoding: try tool(name, arguments).data, as: UTF8.self)
    }

    /// The first window called `title` (waiting for it up to `timeout`).
    public func window(named title: String, timeout: Double = 20) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = try text("xdotool", ["search", "--name", title]).split(separator: "\n").first
            if let found { return String(found) }
            usleep(100_000)
        }
        return nil
    }

    /// A window's pixels, photographed with xwd.
    public func capture(_ window: String) throws -> XWDImage? {
        XWDImage(try tool("xwd", ["-id", window, "-silent"]).data)
    }
}

/// An X window dump (xwd's format): a big-endian header, colour map entries, then rows of pixels.
public struct XWDImage {
    public let width: Int, height: Int
    private let rgb: [UInt8]

    public init?(_ data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 100 else { return nil }
        func field(_ k: Int) -> Int { Int(bytes[k * 4]) << 24 | Int(bytes[k * 4 + 1]) << 16 | Int(bytes[k * 4 + 2]) << 8 | Int(bytes[k * 4 + 3]) }
        let headerSize = field(0), width = field(4), height = field(5), byteOrder = field(7), bitsPerPixel = field(11)
        let bytesPerLine = field(12), (redMask, greenMask, blueMask) = (field(14), field(15), field(16)), colours = field(19)
        let start = headerSize + colours * 12, step = bitsPerPixel / 8
        guard step >= 3, bytes.count >= start + bytesPerLine * height else { return nil }
        func shift(_ mask: Int) -> Int { mask == 0 ? 0 : mask.trailingZeroBitCount }
        let (redShift, greenShift, blueShift) = (shift(redMask), shift(greenMask), shift(blueMask))
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        // Through buffer pointers: the tests are built for debugging, where
        // checked array subscripts made a photograph take seconds.
        bytes.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                var k = 0
                for y in 0..<height {
                    var p = start + y * bytesPerLine
                    for _ in 0..<width {
                        var v = 0
                        if byteOrder == 0 {
                            for b in (0..<step).reversed() { v = v << 8 | Int(source[p + b]) }
                        } else {
                            for b in 0..<step { v = v << 8 | Int(source[p + b]) }
                        }
                        target[k] = UInt8(truncatingIfNeeded: (v & redMask) >> redShift)
                        target[k + 1] = UInt8(truncatingIfNeeded: (v & greenMask) >> greenShift)
                        target[k + 2] = UInt8(truncatingIfNeeded: (v & blueMask) >> blueShift)
                        k += 3
                        p += step
                    }
                }
            }
        }
        (self.width, self.height, self.rgb) = (width, height, rgb)
    }

    /// The mean colour of the `size` x `size` block at (x, y).
    public func mean(_ x: Int, _ y: Int, size: Int) -> (Double, Double, Double) {
        var sum = (0.0, 0.0, 0.0)
        for yy in y..<(y + size) { for xx in x..<(x + size) { let p = pixel(xx, yy); sum = (sum.0 + p.0, sum.1 + p.1, sum.2 + p.2) } }
        let n = Double(size * size)
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    /// Whether colour `c` is within 0.06 of `e` in each channel.
    public static func near(_ c: (Double, Double, Double), _ e: Color) -> Bool {
        abs(c.0 - e.red) < 0.06 && abs(c.1 - e.green) < 0.06 && abs(c.2 - e.blue) < 0.06
    }

    public func pixel(_ x: Int, _ y: Int) -> (Double, Double, Double) {
        let k = (y * width + x) * 3
        return (Double(rgb[k]) / 255, Double(rgb[k + 1]) / 255, Double(rgb[k + 2]) / 255)
    }

    /// Whether (x, y) is `hex` within `tolerance`.
    public func shows(_ hex: String, at x: Int, _ y: Int, tolerance: Double = 0.02) -> Bool {
        let c = Color(hex: hex)!, p = pixel(x, y)
        return abs(p.0 - c.red) <= tolerance && abs(p.1 - c.green) <= tolerance && abs(p.2 - c.blue) <= tolerance
    }

    /// The photograph as a canvas (for writing it as a PNG).
    public func canvas() -> Canvas {
        var canvas = Canvas(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                canvas.fill(PixelRect(x0: x, y0: y, x1: x + 1, y1: y + 1), with: Color(red: r, green: g, blue: b))
            }
        }
        return canvas
    }

    /// How many pixels of the container (between the timeline and the bar) differ from `other`'s.
    public func differingPixels(from other: XWDImage) -> Int {
        var count = 0
        for y in 30..<min(height, other.height, 780) {
            for x in 0..<min(width, other.width) {
                let (a, b) = (pixel(x, y), other.pixel(x, y))
                if abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2) > 0.06 { count += 1 }
            }
        }
        return count
    }

    /// How many pixels of the rectangle are light (text on the dark overlays).
    public func lightPixels(x: Int, y: Int, width w: Int, height h: Int) -> Int {
        var count = 0
        for yy in y..<min(y + h, height) { for xx in x..<min(x + w, width) { let p = pixel(xx, yy); if p.0 + p.1 + p.2 > 2.2 { count += 1 } } }
        return count
    }
}

extension VirtualDisplay {
    /// Photographs `window` until `done` holds of the picture, and returns
    /// that photograph; after `timeout` seconds, the last one taken. It keeps
    /// looking until the deadline has passed, and at least twice, so a
    /// photograph that takes long on a busy machine is never the only look.
    public func waitForCapture(_ window: String, timeout: Double = 15, until done: (XWDImage) -> Bool) throws -> XWDImage? {
        let deadline = Date().addingTimeInterval(timeout)
        var last: XWDImage?
        var looks = 0
        repeat {
            if looks > 0 { usleep(100_000) }
            last = try capture(window)
            looks += 1
            if let last, done(last) { return last }
        } while Date() < deadline || looks < 2
        return last
    }

    /// As ``waitForCapture(_:timeout:until:)``, for a photograph whose
    /// container (between the timeline and the bar) is also the one taken
    /// just before it: the view at rest or paused, not a frame of many.
    public func waitForStillCapture(_ window: String, timeout: Double = 15, until done: (XWDImage) -> Bool) throws -> XWDImage? {
        var previous: XWDImage?
        return try waitForCapture(window, timeout: timeout) { image in
            defer { previous = image }
            return done(image) && previous.map { image.differingPixels(from: $0) == 0 } == true
        }
    }
}
