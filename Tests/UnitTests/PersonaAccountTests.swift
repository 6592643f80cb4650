import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// Persona accounts: anonymous sign-ins, providers and app_metadata.
@Suite struct PersonaAccountTests {
    private func parse(_ personas: String) throws -> AccessPlan {
        try AccessPlanParser(file: "plan.yml").parse("personas:\n" + personas)
    }

    private func mistake(_ personas: String) -> AccessPlanError? {
        do {
            _ = try parse(personas)
            return nil
        } catch {
            return error as? AccessPlanError
        }
    }

    @Test func anonymousPersonaHasNoEmailAndTheAnonymousProvider() throws {
        let plan = try parse("  guest: { role: authenticated, anonymous: true, metadata: { display_name: G } }\n")
        let user = try #require(plan.personas[0].user)
        #expect(user.isAnonymous)
        #expect(user.email == "")
        #expect(user.provider == "anonymous")
        #expect(user.appMetadataJSON == #"{"provider":"anonymous","providers":["anonymous"]}"#)
        #expect(user.metadataJSON == #"{"display_name":"G"}"#)
    }

    @Test func anonymousClaimsSayIsAnonymousWithAnEmptyEmail() throws {
        let plan = try parse("  guest: { role: authenticated, anonymous: true }\n  pat: { role: authenticated, email: p@example.com }\n")
        let signIn = { (id: String) in
            AuthClaims.SignIn(userID: id, sessionID: "33333333-3333-4333-8333-333333333333", issuedAt: 1_800_000_000,
                              methods: [("password", 1_799_999_999)])
        }
        let guest = JSONText.encode(AuthClaims.signedIn(
            plan.personas[0], user: try #require(plan.personas[0].user), signIn("11111111-1111-4111-8111-111111111111")))
        let pat = JSONText.encode(AuthClaims.signedIn(
            plan.personas[1], user: try #require(plan.personas[1].user), signIn("22222222-2222-4222-8222-222222222222")))
        let guestClaims = try #require(try JSONSerialization.jsonObject(with: Data(guest.utf8)) as? [String: Any])
        let patClaims = try #require(try JSONSerialization.jsonObject(with: Data(pat.utf8)) as? [String: Any])
        #expect(guestClaims["is_anonymous"] as? Bool == true)
        #expect(guestClaims["email"] as? String == "")
        #expect(guestClaims["role"] as? String == "authenticated")
        #expect(patClaims["is_anonymous"] as? Bool == false)
        #expect((patClaims["app_metadata"] as? [String: Any])?["provider"] as? String == "email")
    }

    @Test func providerGoesIntoAppMetadataAndAppMetadataKeysAreMerged() throws {
        let plan = try parse("""
              jay:
                role: authenticated
                email: jay@example.com
                provider: kakao
                app_metadata: { plan: pro, providers: [kakao, email] }

            """)
        let user = try #require(plan.personas[0].user)
        #expect(user.provider == "kakao")
        #expect(user.appMetadataJSON == #"{"provider":"kakao","providers":["kakao","email"],"plan":"pro"}"#)
    }

    @Test func emailIsTheDefaultProvider() throws {
        let user = try #require(try parse("  ava: { role: authenticated, email: ava@example.com }\n").personas[0].user)
        #expect(user.provider == "email")
        #expect(!user.isAnonymous)
        #expect(user.appMetadataJSON == #"{"provider":"email","providers":["email"]}"#)
    }

    @Test func refusesContradictoryPersonasWithTheirLine() {
        let cases: [(String, Int, String)] = [
            ("  g: { role: authenticated, anonymous: true, email: g@example.com }\n", 2, "is anonymous and cannot have an email"),
            ("  g: { role: anon, anonymous: true }\n", 2, "its role must be authenticated"),
            ("  g: { role: authenticated, anonymous: yes please }\n", 2, "must be true or false"),
            ("  g: { role: authenticated, anonymous: true, provider: apple }\n", 2, "cannot have a provider"),
            ("  g: { role: authenticated, email: g@example.com, provider: Apple! }\n", 2, "must be a provider name"),
            ("  g: { role: authenticated, email: g@example.com, provider: anonymous }\n", 2, "write 'anonymous: true'"),
            ("  g: { role: authenticated, email: g@example.com, app_metadata: [a] }\n", 2, "must be a mapping"),
            ("  a: { role: anon, provider: google }\n", 2, "has no account (no email)"),
            ("  g:\n    role: authenticated\n", 2, "needs an email (or anonymous: true)"),
        ]
        for (text, line, message) in cases {
            let error = mistake(text)
            #expect(error?.line == line, "\(text)")
            #expect(error?.message.contains(message) == true, "\(text): \(error?.message ?? "no error")")
        }
    }
}
