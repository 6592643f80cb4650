import Crypto
import Foundation

/// Signs a token as a local Supabase stack does (HS256 with the project's JWT secret),
/// so `request.headers`' `authorization` and `apikey` carry real tokens.
enum JWTSigner {
    /// The Supabase CLI's default local JWT secret (`auth.jwt_secret` in config.toml).
    static let localSecret = "super-secret-jwt-token-with-at-least-32-characters-long"

    static func sign(claimsJSON: String, secret: String = localSecret) -> String {
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = base64URL(Data(claimsJSON.utf8))
        let input = "\(header).\(payload)"
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "\(input).\(base64URL(Data(mac)))"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
