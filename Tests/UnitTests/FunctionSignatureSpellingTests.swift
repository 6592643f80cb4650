import Foundation
import Testing
@testable import WardenKit

/// `PlanCatalogCheck.normalized` compares a plan's function signature with the
/// catalog's however it is spaced; it is written by hand (no regular expression), so
/// it is checked against the regular expression it replaced.
@Suite struct FunctionSignatureSpellingTests {
    static let spellings = [
        "public.add(a integer, b integer)",
        "public.add( a integer ,b integer )",
        "public.add(integer,integer)",
        "  public.f ( )  ",
        "public.f()",
        "public.g(x character varying, y timestamp with time zone)",
        "public.g(x\tcharacter varying,\n y timestamp  with time zone)",
        "public.h(\"odd name\" text, \"a , b\" integer)",
        "public.k(VARIADIC xs text[])",
        "",
        " , ",
        "f(a int) trailing ",
    ]

    @Test(arguments: spellings)
    func spacingAroundParenthesesAndCommasIsIgnored(_ spelling: String) {
        let byRegularExpression = spelling.replacingOccurrences(
            of: #"\s*([(),])\s*"#, with: "$1", options: .regularExpression)
        #expect(PlanCatalogCheck.normalized(spelling) == byRegularExpression)
    }

    @Test func differentSpacingsOfOneSignatureAgree() {
        #expect(PlanCatalogCheck.normalized("public.add( a integer ,b integer )")
            == PlanCatalogCheck.normalized("public.add(a integer, b integer)"))
        #expect(PlanCatalogCheck.normalized("public.g(x timestamp with time zone)")
            != PlanCatalogCheck.normalized("public.g(x timestamp  with time zone)"))
    }
}
