import WardenPostgres

/// Secrets in the Vault for a function that reads it: the twin's Vault is empty, so a
/// definer function handing anon the app's provider key (`select decrypted_secret from
/// vault.decrypted_secrets where name = 'provider_key'`) returned NULL, and lint called
/// it HARMLESS (a helpdesk's `get_ai_api_key()`, round thirty-four). A hosted project
/// has the secret.
extension FunctionCallProbe {
    /// The text each made secret holds.
    static let probeSecret = "pgwarden-probe-secret"

    /// Where `body` reads the Vault, makes (in lint's rolled-back run) a secret for each
    /// name its string literals give that has none yet, or one unnamed secret when it
    /// names none and the Vault is empty.
    func giveVaultSecrets(readBy body: String) throws {
        let lowered = body.lowercased()
        guard lowered.contains("vault.decrypted_secrets") || lowered.contains("vault.secrets"),
              try context.connection.query("select to_regprocedure('vault.create_secret(text, text, text, uuid)') is not null").scalar == "t"
        else { return }
        let names = Array(Set(body.matches(of: /'([A-Za-z_][A-Za-z0-9_.\-]{0,62})'/).map { String($0.1) })).sorted().prefix(8)
        let make = names.isEmpty
            ? "select vault.create_secret(\(DraftOwnership.literal(Self.probeSecret))) where not exists (select 1 from vault.secrets)"
            : names.map { name in
                "select vault.create_secret(\(DraftOwnership.literal(Self.probeSecret)), \(DraftOwnership.literal(name))) "
                    + "where not exists (select 1 from vault.secrets where name = \(DraftOwnership.literal(name)))"
            }.joined(separator: ";\n")
        try context.makeSetupRows(make)
    }
}
