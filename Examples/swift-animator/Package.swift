// swift-tools-version:6.2
// A Segue animator in Swift: a SwiftPM package that uses the ABI target of
// Segue by path and builds one dynamic library exporting
// `segue_animator_entry` with @c. Copy this folder, rename, and point the
// path at your Segue checkout.
import PackageDescription

let package = Package(
    name: "Crossfade",
    products: [.library(name: "Crossfade", type: .dynamic, targets: ["Crossfade"])],
    dependencies: [.package(name: "Segue", path: "../..")],
    targets: [.target(name: "Crossfade", dependencies: [.product(name: "AnimatorABI", package: "Segue")])]
)
