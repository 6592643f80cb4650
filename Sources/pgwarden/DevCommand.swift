import ArgumentParser
import Foundation
import WardenKit

/// `pgwarden dev`: the whole job on an ephemeral local PostgreSQL.
struct DevCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Start an ephemeral local PostgreSQL, run the job on it, and stop it.",
        discussion: """
            The server's data lives in a temporary directory and it listens only on a \
            Unix socket there; everything is deleted when the command ends (also on Ctrl-C).
            """
    )

    @Flag(help: "Leave the server running and print its connection URL (stop it with Ctrl-C).")
    var keep = false

    func run() throws {
        try ErrorReporter.run {
            let cluster = try LocalCluster.start()
            let token = InterruptHandler.shared.onInterrupt { cluster.stop() }
            defer {
                InterruptHandler.shared.remove(token)
                cluster.stop()
            }
            let version = try ServerInfo.version(of: cluster.settings())
            print("PostgreSQL \(version) ready in \(Self.milliseconds(cluster.startupDuration)) ms")
            print("URL: \(cluster.url())")
            if keep {
                print("Server kept running; press Ctrl-C to stop it and delete its data.")
                while cluster.isRunning { sleep(1) }
            }
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
