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

    /// Base64 with `-` and `_` for `+` and `/`, unpadded (RFC 7515). Byte by byte:
    /// Foundation's `replacingOccurrences` is slow on Linux.
    static func base64URL(_ data: Data) -> String {
        var bytes = Array(data.base64EncodedData())
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "+") { bytes[index] = UInt8(ascii: "-") }
            if bytes[index] == UInt8(ascii: "/") { bytes[index] = UInt8(ascii: "_") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
