// swift-tools-version:6.2
// @NAME@: a Segue animator in Swift. Build it with the Swift toolchain segue was built with
// (Swift has no stable ABI on Linux). The header is a C target of the package: no Segue checkout needed.
import PackageDescription

let package = Package(
    name: "@NAME@",
    products: [.library(name: "@NAME@", type: .dynamic, targets: ["@NAME@"])],
    targets: [
        .target(name: "AnimatorABI"),
        .target(name: "@NAME@", dependencies: ["AnimatorABI"]),
    ]
)
