// swift-tools-version:6.0
// An app's test suite that uses WardenKit: provisions Electric Ride on a scratch
// database and proves its access plan. Depends on this repository by path.
import PackageDescription

let package = Package(
    name: "ElectricRideCheck",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "pgwarden", path: "../..")],
    targets: [
        .testTarget(
            name: "ElectricRideCheckTests",
            dependencies: [.product(name: "WardenKit", package: "pgwarden")]
        )
    ]
)
