import AnimatorABI
import Glibc
import SystemCalls
import Timing

/// A message a plugin wrote through the host's `log` function.
public struct PluginLogMessage: Sendable {
    /// The ABI's `segue_log_level_t`.
    public enum Level: Int, Sendable { case debug, info, warning, error }
    /// The path of the plugin that wrote it.
    public var plugin: String
    /// How severe it is.
    public var level: Level
    /// What the plugin wrote, with control characters escaped.
    public var message: String
}

/// The `segue_host_t` tables handed to plugins. Each plugin gets its own copy,
/// whose `host_data` identifies it in log messages; the copies live for the
/// life of the process, as the header promises.
package enum HostFunctionTable {
    private static let lock = Lock()
    nonisolated(unsafe) private static var plugins: [String] = []
    nonisolated(unsafe) private static var logHandler: @Sendable (PluginLogMessage) -> Void = standardError

    /// Where plugin log messages go unless a host says otherwise.
    static let standardError: @Sendable (PluginLogMessage) -> Void = { message in
        writeAll("segue: [\(message.level)] \(message.plugin): \(message.message)\n")
    }

    /// The longest log message read, in bytes; the rest is dropped.
    static let longestMessage = 4096

    /// Replaces where plugin log messages go (standard error by default).
    static func setLogHandler(_ handler: @escaping @Sendable (PluginLogMessage) -> Void) {
        lock.withLock { logHandler = handler }
    }

    /// A new table for the plugin at `path`, valid for the life of the process.
    package static func make(for path: String) -> UnsafePointer<segue_host_t> {
        let index = lock.withLock {
            plugins.append(path)
            return plugins.count - 1
        }
        var table = segue_host_t()
        table.abi_version = segue_version_t(major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))
        table.struct_size = UInt32(MemoryLayout<segue_host_t>.size)
        table.host_name = UnsafePointer(strdup("segue"))
        table.host_version = UnsafePointer(strdup(SegueVersion.string))
        table.host_data = UnsafeMutableRawPointer(bitPattern: index + 1)
        table.log = { host, level, message in
            guard let host, let message else { return }
            let index = Int(bitPattern: host.pointee.host_data) - 1
            let (path, handler) = HostFunctionTable.lock.withLock {
                (HostFunctionTable.plugins.indices.contains(index) ? HostFunctionTable.plugins[index] : "?",
                 HostFunctionTable.logHandler)
            }
            handler(PluginLogMessage(
                plugin: path, level: PluginLogMessage.Level(rawValue: Int(level.rawValue)) ?? .info,
                message: PluginBoundary.text(cString: message, limit: HostFunctionTable.longestMessage)))
        }
        table.curve_value = { curve, t in TimingCurve(curve).value(at: t) }
        table.cubic_bezier_value = { x1, y1, x2, y2, t in
            TimingCurve(x1: x1, y1: y1, x2: x2, y2: y2).value(at: t)
        }
        table.spring_init = { out, duration, damping, velocity in
            fill(out, with: Spring(duration: duration, dampingRatio: damping, initialVelocity: velocity))
        }
        table.spring_init_physical = { out, stiffness, damping, mass, velocity in
            fill(out, with: Spring(stiffness: stiffness, damping: damping, mass: mass, initialVelocity: velocity))
        }
        table.spring_value = { spring, t in
            guard let s = spring?.pointee else { return .nan }
            return Spring(duration: s.duration, dampingRatio: s.damping_ratio, initialVelocity: s.initial_velocity,
                          omega0: s.omega0).value(at: t)
        }
        let pointer = UnsafeMutablePointer<segue_host_t>.allocate(capacity: 1)
        pointer.initialize(to: table)
        return UnsafePointer(pointer)
    }
}

/// Writes `spring` into the plugin's `out` (zeroed when there is none, as the header says); whether there was one.
private func fill(_ out: UnsafeMutablePointer<segue_spring_t>?, with spring: Spring?) -> Bool {
    guard let out else { return false }
    guard let spring else {
        out.pointee = segue_spring_t()
        return false
    }
    out.pointee = segue_spring_t(duration: spring.duration, damping_ratio: spring.dampingRatio,
                                 initial_velocity: spring.initialVelocity, omega0: spring.omega0)
    return true
}

extension TimingCurve {
    /// The named curve for an ABI `segue_curve_t`; unknown values are linear, as the header says.
    init(_ curve: segue_curve_t) {
        switch curve {
        case SEGUE_CURVE_EASE_IN: self = .easeIn
        case SEGUE_CURVE_EASE_OUT: self = .easeOut
        case SEGUE_CURVE_EASE_IN_OUT: self = .easeInEaseOut
        case SEGUE_CURVE_DEFAULT: self = .default
        default: self = .linear
        }
    }
}

/// The host's version, reported to plugins and by `segue --version`.
public enum SegueVersion {
    /// The version, as `segue --version` prints it.
    public static let string = "1.0.0"
}

/// The animator ABI version this host speaks.
public enum AnimatorABIVersion {
    /// `SEGUE_ABI_VERSION_MAJOR`.
    public static let major = Int(SEGUE_ABI_VERSION_MAJOR)
    /// `SEGUE_ABI_VERSION_MINOR`.
    public static let minor = Int(SEGUE_ABI_VERSION_MINOR)
    /// `MAJOR.MINOR`.
    public static var string: String { "\(major).\(minor)" }
}
