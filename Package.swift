// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pgwarden",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pgwarden", targets: ["pgwarden"]),
        .library(name: "WardenKit", targets: ["WardenKit"]),
        .library(name: "WardenPostgres", targets: ["WardenPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // The C layer: libpq's header (libpq-dev), and libpq loaded when first needed
        // (LibPQLoader.c: not linked, so its libraries do not slow every start).
        .target(name: "CLibPQ"),
        // The only code that touches libpq.
        .target(name: "WardenPostgres", dependencies: ["CLibPQ"]),
        // The library: migrations, provisioning, access plan.
        .target(
            name: "WardenKit",
            dependencies: [
                "WardenPostgres",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "TOMLKit", package: "TOMLKit"),  // supabase/config.toml
            ],
            resources: [
                // The Supabase twin's SQL (docs/supabase-twin.md).
                .embedInCode("Provisioning/Twin/TwinHelpers.sql"), .embedInCode("Provisioning/Twin/TwinRoles.sql"),
                .embedInCode("Provisioning/Twin/TwinDatabase.sql"), .embedInCode("Provisioning/Twin/TwinAuth.sql"),
                .embedInCode("Provisioning/Twin/TwinAuthTables.sql"), .embedInCode("Provisioning/Twin/TwinAuthFunctions.sql"),
                .embedInCode("Provisioning/Twin/TwinStorage.sql"),
                .embedInCode("Provisioning/Twin/TwinRealtime.sql"), .embedInCode("Provisioning/Twin/TwinPolicyGrants.sql"),
                .embedInCode("Provisioning/Twin/TwinDropTriggerGrants.sql"), .embedInCode("Provisioning/Twin/TwinEventTriggers.sql"),
                .embedInCode("Provisioning/Twin/TwinPublications.sql"),
                .embedInCode("Provisioning/Twin/TwinAllowedConfigs.sql"), .embedInCode("Provisioning/Twin/TwinVault.sql"),
                .embedInCode("Provisioning/Twin/TwinPlatform.sql"), .embedInCode("Provisioning/Twin/TwinExtensionScripts.sql"),
                // pgwarden's stand-ins for server extensions (ephemeral server only).
                .embedInCode("Provisioning/StandIns/StandInPgNet.sql"), .embedInCode("Provisioning/StandIns/StandInHttp.sql"),
                .embedInCode("Provisioning/StandIns/StandInPgjwt.sql"), .embedInCode("Provisioning/StandIns/StandInSupabaseVault.sql"),
                .embedInCode("Provisioning/StandIns/StandInPgGraphql.sql"), .embedInCode("Provisioning/StandIns/StandInPgmq.sql"),
                .embedInCode("Provisioning/StandIns/StandInPgsodium.sql"), .embedInCode("Provisioning/StandIns/StandInPgJsonschema.sql"),
                .embedInCode("Provisioning/StandIns/StandInPgStatMonitor.sql"),
                .embedInCode("Provisioning/StandIns/StandInIndexAdvisor.sql"),
            ]
        ),
        // `pgwarden init`'s projects, embedded in the binary (not part of the library:
        // no product ships it). The EmbedExamples plugin writes them from the repository's
        // files at build time (Electric Ride at the root, the others under examples/).
        .target(name: "PgwardenExamples", dependencies: ["WardenKit"], plugins: ["EmbedExamples"]),
        .plugin(name: "EmbedExamples", capability: .buildTool(), dependencies: ["EmbedExamplesTool"]),
        .executableTarget(name: "EmbedExamplesTool"),
        // The command-line tool: argument parsing and error reporting only.
        .executableTarget(
            name: "pgwarden",
            dependencies: [
                "WardenKit",
                "WardenPostgres",
                "PgwardenExamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers both test targets share: the ephemeral test servers, Electric Ride's
        // files, running the built executable, database digests.
        .target(name: "TestSupport", dependencies: ["WardenKit"], path: "Tests/TestSupport"),
        .testTarget(name: "UnitTests", dependencies: ["WardenKit", "PgwardenExamples", "TestSupport"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["WardenKit", "TestSupport"],
            exclude: ["Fixtures"]  // SQL folders the tests read from the source tree
        ),
    ]
)
