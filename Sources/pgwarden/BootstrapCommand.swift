import ArgumentParser
import WardenPostgres
import WardenKit

/// `pgwarden bootstrap`: the Supabase roles and auth schema on plain PostgreSQL.
struct BootstrapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bootstrap",
        abstract: "Make plain PostgreSQL a twin of a Supabase project: roles, auth, storage, realtime, extensions.",
        discussion: """
            Creates what a fresh Supabase project has (docs/supabase-twin.md): its roles (anon, \
            authenticated, service_role, authenticator, postgres as a non-superuser, the service \
            roles), the auth schema (users, identities, sessions, ... and auth.uid()/role()/email()/jwt()), \
            storage (buckets, objects, foldername/filename/extension), realtime (messages, topic(), \
            send(), broadcast_changes()), vault, Database Webhooks (supabase_functions), extensions \
            with uuid-ossp and pgcrypto, the supabase_realtime publication, graphql_public, \
            supautils' grants to postgres (policies and triggers on the platform's tables), and Supabase's grants and \
            default privileges. It adds only what is missing and never replaces what exists; on a \
            complete database (a Supabase project, or one bootstrapped before) it changes nothing \
            and says so. Needs a superuser.
            """
    )

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        try ErrorReporter.run {
            print(ProjectSteps.describe(try SupabaseCompat.bootstrap(database.connect())))
        }
    }

}
