import PluginRuntime

/// What confines a registry's plugin code: where it runs, the sandbox asked
/// for, and what of it this kernel enforces. `segue list` shows it.
public struct PluginConfinement: Sendable, Equatable {
    /// Where plugin code runs.
    public var isolation: PluginIsolation
    /// The sandbox asked for (it applies only when isolation is `process`).
    public var policy: SandboxPolicy
    /// What this kernel offers.
    public var support: SandboxSupport

    /// The confinement of code run with `isolation` and `policy` on a kernel offering `support`.
    public init(isolation: PluginIsolation, policy: SandboxPolicy, support: SandboxSupport) {
        (self.isolation, self.policy, self.support) = (isolation, policy, support)
    }

    /// Descriptors a sandboxed worker may hold (`RLIMIT_NOFILE`), as the worker sets it.
    public static let descriptorLimit = 64

    /// One line for people: "strict: Landlock ABI 7, a seccomp filter, 1 GiB of memory, 64 descriptors and 64 threads per worker, no core files".
    public var summary: String {
        switch (isolation, policy.mode) {
        case (.none, _): return "none: plugins run inside this process (isolation none)"
        case (.process, .off): return "off: plugins run in worker processes, unconfined"
        case (.process, .strict):
            let layers = [support.landlockABI > 0 ? "Landlock ABI \(support.landlockABI)" : "no Landlock",
                          support.seccomp ? "a seccomp filter" : "no seccomp"]
            return "strict: \(layers.joined(separator: ", ")), \(SandboxPolicy.formatted(policy.memoryLimit)) of memory, \(Self.descriptorLimit) descriptors and \(policy.threadLimit) threads per worker, no core files"
        }
    }

    /// What a person running plugins under this should know, once; nil when every layer is in force.
    public var warning: String? {
        switch (isolation, policy.mode) {
        case (.none, _):
            return "plugins run inside this process (isolation none), with no sandbox: each can do whatever this program can; choose it for plugins you trust"
        case (.process, .off):
            return "the plugin sandbox is off: plugins run in worker processes but can read and write your files, use the network and start programs; choose it for plugins you trust"
        case (.process, .strict):
            return support.missing.map { "the plugin sandbox is incomplete: \($0)" }
        }
    }
}
