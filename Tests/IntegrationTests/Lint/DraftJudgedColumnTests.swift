import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A student's submission with a `grade` the course's teacher sets through a policy of
/// their own, beside the student's `for all using (student_id = auth.uid())`: the
/// student may set their own grade, `update: own` held, the drafted plan passed, and
/// nothing said so (an LMS shape, round thirty-eight's note). A column named for a
/// judgement (grade, score, marks, points, approved, verified) on a row that another
/// user's update policy reaches is checked: the owner sets it on their own row.
@Suite struct DraftJudgedColumnTests {
    static func course(_ extra: String) -> String {
        """
        create table public.courses (id uuid primary key default gen_random_uuid(),
          teacher_id uuid not null default auth.uid() references auth.users (id), title text not null default 'x');
        create table public.enrollments (id uuid primary key default gen_random_uuid(),
          course_id uuid not null references public.courses (id), student_id uuid not null references auth.users (id),
          unique (course_id, student_id));
        create table public.submissions (id uuid primary key default gen_random_uuid(),
          course_id uuid not null references public.courses (id), student_id uuid not null references auth.users (id),
          body text not null default '', grade int check (grade between 0 and 100));
        alter table public.courses enable row level security;
        alter table public.enrollments enable row level security;
        alter table public.submissions enable row level security;
        create policy "read" on public.courses for select to authenticated using (true);
        create policy "own" on public.courses for all to authenticated using (teacher_id = auth.uid()) with check (teacher_id = auth.uid());
        create policy "enrol" on public.enrollments for insert to authenticated with check (student_id = auth.uid());
        create policy "read" on public.enrollments for select to authenticated using (student_id = auth.uid());
        create policy "student" on public.submissions for all to authenticated using (student_id = auth.uid())
          with check (student_id = auth.uid());
        \(extra)
        """
    }

    static let teacherGrades = """
        create policy "teacher" on public.submissions for all to authenticated
          using (exists (select 1 from public.courses c where c.id = course_id and c.teacher_id = auth.uid()));
        """

    @Test func aStudentSettingTheirOwnGradeIsADanger() throws {
        let draft = try DraftRealProjectShapesTests.draft("judgedgrade", Self.course(Self.teacherGrades))
        let check = try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava sets grade to 100 in a public.submissions row of ava's",
            danger: "public.submissions · ava: a signed-in user may set grade to 100 in their own row, "
                + "which a policy lets another user update too")
        #expect(check.sql.contains("set grade = 100"), "\(check.sql)")
        #expect(!draft.plan.checks.contains { $0.name.contains(" body ") }, "\(draft.plan.checks.map(\.name))")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Where only the student's own policy updates the row, a grade they set is theirs
    /// to set (a self-assessment): no check.
    @Test func withNoOtherUsersUpdatePolicyTheColumnIsTheOwners() throws {
        let draft = try DraftRealProjectShapesTests.draft("judgedalone", Self.course(""))
        #expect(!draft.plan.checks.contains { $0.name.contains("grade") }, "\(draft.plan.checks.map(\.name))")
    }

    /// A column grant leaving the grade out (`grant update (body)`), or a trigger keeping
    /// it from its row's student: no check where the grant refuses, and a refusal kept
    /// where the trigger does.
    @Test func aGrantOrATriggerKeepingTheGradeIsNoDanger() throws {
        let granted = try DraftRealProjectShapesTests.draft("judgedgrant", Self.course(Self.teacherGrades + """
            revoke update on public.submissions from authenticated;
            grant update (body) on public.submissions to authenticated;
            """))
        #expect(!granted.plan.checks.contains { $0.name.contains("grade") }, "\(granted.plan.checks.map(\.name))")

        let kept = try DraftRealProjectShapesTests.draft("judgedtrigger", Self.course(Self.teacherGrades + """
            create function public.keep_grade() returns trigger language plpgsql as $$
            begin
              if new.grade is distinct from old.grade and new.student_id = auth.uid() then
                raise exception 'only the teacher grades';
              end if;
              return new;
            end $$;
            create trigger keep_grade before update on public.submissions for each row execute function public.keep_grade();
            """))
        let check = try #require(kept.plan.checks.first { $0.name == "ava sets grade to 100 in a public.submissions row of ava's" },
                                 "\(kept.yaml)")
        #expect(check.expectation.sqlState == "P0001", "\(kept.yaml)")
        #expect(!kept.dangerCells.contains { $0.contains("grade") }, "\(kept.dangerCells)")
        #expect(kept.verified, "\(DraftRealProjectShapesTests.failures(kept))")
    }
}
