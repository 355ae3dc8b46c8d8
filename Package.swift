// swift-tools-version:6.2
import PackageDescription

// Segue: a plugin host for view-transition animators.
//
// The layout is the architecture: `AnimatorABI` is the C ABI (its header is the
// contract with plugins), `AnimatorKit` is Swift sugar over it for plugin
// authors, `PluginRuntime` is what loads and runs plugin code (without
// Foundation, so that the worker starts fast), `HostContainer` is the host
// library, `segue-worker` is the process that runs plugin code when plugins
// are isolated, `Renderer` turns views
// into pictures (the host runs without it), `segue` is the command-line
// tool, and `Plugins/*` are animators built exactly as a third party's would
// be: dynamic libraries that know nothing but the ABI.

/// Plugins export `segue_animator_entry` and nothing else.
let pluginLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/exports.map"]),
]

let package = Package(
    name: "Segue",
    products: [
        .library(name: "HostContainer", targets: ["HostContainer"]),
        // The C ABI alone, for animators written in Swift (Examples/swift-animator).
        .library(name: "AnimatorABI", targets: ["AnimatorABI"]),
        .library(name: "AnimatorKit", targets: ["AnimatorKit"]),
        .library(name: "Renderer", targets: ["Renderer"]),
        .executable(name: "segue", targets: ["segue"]),
        // Runs plugin code out of the host's process; ship it beside any program that embeds Segue.
        .executable(name: "segue-worker", targets: ["segue-worker"]),
        .library(name: "SpringSlide", type: .dynamic, targets: ["SpringSlide"]),
        .library(name: "CurlUp", type: .dynamic, targets: ["CurlUp"]),
        .library(name: "ImageZoom", type: .dynamic, targets: ["ImageZoom"]),
    ],
    targets: [
        .target(name: "AnimatorABI"),
        .target(name: "AnimatorKit", dependencies: ["AnimatorABI"]),
        .target(name: "HeapProbe"),
        .target(name: "ProcessShims"),
        // What a worker enters before plugin code runs: capabilities, limits, Landlock, seccomp.
        .target(name: "WorkerSandbox"),
        .target(name: "PluginRuntime", dependencies: ["AnimatorABI", "ProcessShims", "WorkerSandbox"]),
        .target(name: "HostContainer", dependencies: ["AnimatorABI", "PluginRuntime", "HeapProbe", "ProcessShims"]),
        .executableTarget(name: "segue-worker", dependencies: ["PluginRuntime", "AnimatorABI"]),
        .target(name: "Renderer", dependencies: ["HostContainer"]),
        .executableTarget(name: "segue", dependencies: ["HostContainer", "Renderer"]),
        .target(
            name: "SpringSlide", dependencies: ["AnimatorABI", "AnimatorKit"], path: "Plugins/SpringSlide",
            linkerSettings: pluginLinkerSettings),
        .target(
            name: "CurlUp", dependencies: ["AnimatorABI", "AnimatorKit"], path: "Plugins/CurlUp",
            linkerSettings: pluginLinkerSettings),
        .target(
            name: "ImageZoom", dependencies: ["AnimatorABI", "AnimatorKit"], path: "Plugins/ImageZoom",
            linkerSettings: pluginLinkerSettings),
        .executableTarget(name: "EmbeddingExample", dependencies: ["HostContainer"], path: "Examples/embedding"),
        .executableTarget(
            name: "SegueBenchmark",
            dependencies: ["HostContainer", "Renderer"],
            path: "Benchmarks/SegueBenchmark"
        ),
        .testTarget(name: "HostContainerTests", dependencies: ["HostContainer", "PluginRuntime", "Renderer"]),
    ]
)
