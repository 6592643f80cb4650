import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// Which texts share a plan is decided for the units sent together (`PlanReuse`,
/// `ProbeBatch.sendQueued()`): a text repeated among them is prepared once; a text
/// sent once is sent unnamed, and prepared only when a later group sends it again.
@Suite struct PlanReuseGroupTests {
    @Test func aTextSentOnceIsNotKeptAndOneRepeatedLaterIs() throws {
        let connection = try TestCluster.connect()
        let prepared = try connection.rolledBack { () -> [String] in
            let seal = try RunSeal.capture(connection, source: "groups.yml")
            let batch = ProbeBatch(seal: seal, after: "nothing")
            try batch.startSending(on: connection)
            let role = "pgwarden_test_role"
            let twice = [batch.rolledBack(["select 'twice'::text"], parsedAs: role),
                         batch.rolledBack(["select 'twice'::text"], parsedAs: role)]
            let later = batch.rolledBack(["select 'later'::text"], parsedAs: role)
            batch.sendQueued()
            let again = batch.rolledBack(["select 'later'::text"], parsedAs: role)
            let once = batch.rolledBack(["select 'once'::text"], parsedAs: role)
            try batch.run(connection, after: "the groups")
            for (ticket, value) in zip(twice + [later, again, once], ["twice", "twice", "later", "later", "once"]) {
                #expect(try batch.outcomes(ticket)[0].get().scalar == value)
            }
            return try connection.query(
                "select statement from pg_prepared_statements where statement like 'select ''%' order by 1"
            ).rows.compactMap { $0[0] }
        }
        #expect(prepared == ["select 'later'::text", "select 'twice'::text"])
        try connection.deallocatePreparedStatements()
        #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
    }
}
