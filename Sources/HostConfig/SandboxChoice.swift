import Foundation
import PluginRuntime

extension SandboxPolicy {
    /// The sandbox a host runs plugins under, by one order of precedence for
    /// every host (the tool's commands, libsegue): the mode the program chose,
    /// else `SEGUE_SANDBOX`, else the config's `"sandbox"`, else strict; the
    /// memory and thread limits the program chose (a worker's, and all
    /// workers' together), else the config's `"limits"`, else the standard ones.
    /// - Throws: ``SandboxChoiceError`` when `SEGUE_SANDBOX` is neither strict nor off.
    public static func chosen(mode: Mode?, memoryLimit: UInt64?, threadLimit: Int?, totalMemory: UInt64? = nil, config: SegueConfig?,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(SandboxChoiceError) -> SandboxPolicy {
        var policy = SandboxPolicy()
        if let mode {
            policy.mode = mode
        } else if let value = environment["SEGUE_SANDBOX"], !value.isEmpty {
            guard let mode = Mode(rawValue: value) else { throw SandboxChoiceError(message: "SEGUE_SANDBOX=\(value): expected strict or off") }
            policy.mode = mode
        } else if let mode = config?.sandbox {
            policy.mode = mode
        }
        if let bytes = memoryLimit ?? config?.memoryLimit { policy.memoryLimit = bytes }
        if let count = threadLimit ?? config?.threadLimit { policy.threadLimit = count }
        if let bytes = totalMemory ?? config?.totalMemory { policy.totalMemory = bytes }
        return policy
    }
}

/// Why the environment's sandbox cannot be used, in words naming it.
public struct SandboxChoiceError: Error {
    public let message: String
}
