// swift-tools-version:6.2
import PackageDescription

// Segue: a plugin host for view-transition animators.
//
// The layout is the architecture. Each target is one layer, and depends only
// on the layers listed before it; `HostContainer` builds with nothing but the
// ABI and `Timing`, and nothing the command-line tool alone needs is in the
// library embedders link. `Plugins/*` are animators built exactly as a third
// party's would be: dynamic libraries that know nothing but the ABI.

/// Plugins export `segue_animator_entry` and nothing else.
let pluginLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/exports.map"]),
]

/// libsegue: SONAME libsegue.so.1 (the API's major) and only the C API exported.
let embeddingLinkerSettings: [LinkerSetting] = [
    .unsafeFlags([
        "-Xlinker", "-soname=libsegue.so.1",
        // Installed as PREFIX/lib/libsegue.so.1, it finds the Swift runtime installed beside it.
        "-Xlinker", "-rpath=$ORIGIN/segue/runtime",
        "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/Embedding/exports.map",
    ]),
]

let package = Package(
    name: "Segue",
    products: [
        // The container and the plugin host an application embeds; ship
        // `segue-worker` beside it (plugin code runs there).
        .library(name: "HostContainer", targets: ["HostContainer", "PluginHost", "HostConfig"]),
        // The C ABI alone, for animators written in Swift (Examples/swift-animator).
        .library(name: "AnimatorABI", targets: ["AnimatorABI"]),
        .library(name: "AnimatorKit", targets: ["AnimatorKit"]),
        .library(name: "Renderer", targets: ["Renderer"]),
        // libsegue: the host behind a C API (segue/embed.h), for programs in any language. SwiftPM names the
        // file libSegueEmbedding.so; Scripts/install.sh installs it as libsegue.so.1, its SONAME.
        .library(name: "SegueEmbedding", type: .dynamic, targets: ["Embedding"]),
        .executable(name: "segue", targets: ["segue"]),
        .executable(name: "segue-worker", targets: ["segue-worker"]),
        .library(name: "SpringSlide", type: .dynamic, targets: ["SpringSlide"]),
        .library(name: "CurlUp", type: .dynamic, targets: ["CurlUp"]),
        .library(name: "ImageZoom", type: .dynamic, targets: ["ImageZoom"]),
        .library(name: "Pop", type: .dynamic, targets: ["Pop"]),
    ],
    targets: [
        // The C ABI: the header is the contract with plugins.
        .target(name: "AnimatorABI"),
        // Swift conveniences over the ABI for plugin authors.
        .target(name: "AnimatorKit", dependencies: ["AnimatorABI"]),
        // Curves, springs and typed parameter values: shared by the container, plugins (through the host table) and config.
        .target(name: "Timing", dependencies: ["AnimatorABI"]),
        // The core: views, view controllers, the container, transitions, clocks, the built-in default animator.
        .target(name: "HostContainer", dependencies: ["AnimatorABI", "Timing"]),
        // System calls behind one thin layer (retried on EINTR, errors as a typed Errno), a lock, threads, a monotonic clock.
        .target(name: "SystemCalls", dependencies: ["ProcessShims"]),
        // C for what Swift's Glibc module lacks: memfd, posix_spawn's closefrom, shared-memory atomics, a signal self-pipe.
        .target(name: "ProcessShims"),
        // What a worker enters before plugin code runs: capabilities, limits, Landlock, seccomp.
        .target(name: "WorkerSandbox"),
        // What runs plugin code, in the host and in the worker, without Foundation: the loader, the host table,
        // the one boundary that reads plugin- and worker-written memory, the worker protocol, the sandbox policy.
        .target(name: "PluginRuntime", dependencies: ["AnimatorABI", "Timing", "SystemCalls", "ProcessShims", "WorkerSandbox"]),
        // The process that runs plugin code when plugins are isolated.
        .executableTarget(
            name: "segue-worker", dependencies: ["PluginRuntime", "AnimatorABI", "SystemCalls", "ProcessShims", "Timing"],
            // Installed as PREFIX/libexec/segue/segue-worker, it finds the Swift runtime libsegue installs.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-rpath=$ORIGIN/../../lib/segue/runtime"])]),
        // Plugin hosting: search path, registry and its cache, scanner and worker processes, quarantine, watching.
        .target(name: "PluginHost", dependencies: ["HostContainer", "PluginRuntime", "Timing", "AnimatorABI", "SystemCalls", "ProcessShims"]),
        // The config file: a strict JSON reader, the schema, the checks, the rule-based delegate, scenes and scripts.
        .target(name: "HostConfig", dependencies: ["HostContainer", "PluginHost", "PluginRuntime", "Timing", "SystemCalls"]),
        // The C API's header, segue/embed.h: libsegue's contract with programs, in the ABI's vocabulary.
        .target(name: "EmbedABI", dependencies: ["AnimatorABI"]),
        // libsegue: a transition player behind that API: the registry, the config, sandboxed workers, the bound.
        .target(
            name: "Embedding",
            dependencies: ["EmbedABI", "AnimatorABI", "HostContainer", "PluginHost", "HostConfig", "PluginRuntime", "Timing", "SystemCalls", "ProcessShims"],
            exclude: ["exports.map"],
            linkerSettings: embeddingLinkerSettings),
        // A C shim reading glibc's heap figures, for the validator's memory check.
        .target(name: "HeapProbe"),
        // The checks behind `segue validate` (the tool's, not the library's).
        .target(name: "PluginValidation", dependencies: ["HostContainer", "PluginHost", "PluginRuntime", "Timing", "AnimatorABI", "HeapProbe"]),
        // C for the picture and font libraries drawing loads at run time: libpng, libjpeg, FreeType, fontconfig.
        .target(name: "GraphicsShims"),
        // Views to pixels, and the PNG and GIF encoders; the host runs without it.
        .target(name: "Renderer", dependencies: ["HostContainer", "Timing", "GraphicsShims"]),
        // `segue show`: the container live, driven by hand, in a window (SDL2, loaded at run time) or a terminal.
        .target(name: "LiveView", dependencies: ["HostContainer", "HostConfig", "PluginHost", "PluginRuntime", "Renderer", "Timing", "SystemCalls"]),
        // The command-line tool.
        .executableTarget(
            name: "segue",
            dependencies: ["AnimatorABI", "HostContainer", "PluginHost", "HostConfig", "PluginValidation", "PluginRuntime", "Timing", "Renderer", "SystemCalls", "LiveView"]),
        .target(
            name: "SpringSlide", dependencies: ["AnimatorABI", "AnimatorKit"], path: "Plugins/SpringSlide",
            linkerSettings: pluginLinkerSettings),
        .target(
            name: "CurlUp", dependencies: ["AnimatorABI", "AnimatorKit"], path: "Plugins/CurlUp",
            linkerSettings: pluginLinkerSettings),
        .target(
            name: "ImageZoom", dependencies: ["AnimatorABI", "AnimatorKit"], path: "Plugins/ImageZoom",
            linkerSettings: pluginLinkerSettings),
        // Plain C, built with the system C compiler: written for windows opening and closing only.
        .target(name: "Pop", dependencies: ["AnimatorABI"], path: "Plugins/Pop", publicHeadersPath: ".", linkerSettings: pluginLinkerSettings),
        .executableTarget(
            name: "EmbeddingExample", dependencies: ["HostContainer", "PluginHost", "HostConfig", "Timing"], path: "Examples/embedding"),
        .executableTarget(
            name: "SegueBenchmark",
            dependencies: ["HostContainer", "PluginHost", "HostConfig", "PluginRuntime", "Timing", "Renderer", "LiveView", "Embedding", "EmbedABI", "AnimatorABI"],
            path: "Benchmarks/SegueBenchmark"
        ),
        // Tests, by layer, as the targets above are: each test target depends on its layer and those below it.
        // Shared helpers: running programs, temporary folders, C fixtures, the container harness, stand-ins.
        .target(name: "TestSupport", dependencies: ["HostContainer", "Timing"], path: "Tests/TestSupport"),
        // Helpers for the layers above the core: the bundled plugins' registry, a fixed delegate, a virtual X display.
        .target(name: "HostTestSupport", dependencies: ["TestSupport", "HostContainer", "PluginHost", "Renderer"], path: "Tests/HostTestSupport"),
        // The core and timing, alone: no plugin runtime.
        .testTarget(name: "HostContainerTests", dependencies: ["TestSupport", "HostContainer", "Timing", "AnimatorABI"]),
        // The ABI, the plugin runtime and hosting: loading, the boundary, isolation and the sandbox, the registry.
        .testTarget(
            name: "PluginHostTests",
            dependencies: ["TestSupport", "HostTestSupport", "AnimatorABI", "HostContainer", "PluginHost", "PluginRuntime", "HostConfig",
                           "PluginValidation", "SystemCalls", "Timing"]),
        .testTarget(
            name: "HostConfigTests",
            dependencies: ["TestSupport", "HostTestSupport", "HostContainer", "PluginHost", "HostConfig", "PluginRuntime", "PluginValidation", "Timing"]),
        .testTarget(name: "RendererTests", dependencies: ["TestSupport", "HostTestSupport", "HostContainer", "PluginHost", "HostConfig", "Renderer"]),
        .testTarget(
            name: "LiveViewTests",
            dependencies: ["TestSupport", "HostTestSupport", "HostContainer", "PluginHost", "HostConfig", "Renderer", "LiveView"]),
        .testTarget(
            name: "EmbeddingTests",
            dependencies: ["TestSupport", "HostTestSupport", "HostContainer", "PluginHost", "HostConfig", "Renderer", "Embedding", "EmbedABI",
                           "AnimatorABI", "Timing", "SystemCalls"]),
        // The tool, run as a user runs it, and the repository's own checks (architecture, documents, install).
        .testTarget(
            name: "SegueToolTests",
            dependencies: ["TestSupport", "HostTestSupport", "HostContainer", "PluginHost", "PluginRuntime", "HostConfig", "Renderer", "Timing"]),
    ]
)
