import ArgumentParser
import WardenPostgres
import WardenKit

/// `pgwarden bootstrap`: the Supabase roles and auth schema on plain PostgreSQL.
struct BootstrapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bootstrap",
        abstract: "Create Supabase's roles, auth schema and default privileges on plain PostgreSQL.",
        discussion: """
            Creates anon, authenticated, service_role (BYPASSRLS) and authenticator; the auth \
            schema with auth.users and auth.uid()/role()/email()/jwt(); and Supabase's default \
            privileges in public. On a database that already has them (a Supabase project, or \
            one bootstrapped before) it changes nothing and says so. Needs a superuser.
            """
    )

    @OptionGroup var connection: DatabaseOptions

    func run() throws {
        try ErrorReporter.run {
            let connection = try Connection(self.connection.settings())
            print(ProjectJob.describe(try SupabaseCompat.bootstrap(connection)))
        }
    }

}
