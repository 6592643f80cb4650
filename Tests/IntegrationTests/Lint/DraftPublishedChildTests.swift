import Foundation
import Testing
import WardenKit
import TestSupport

/// Child rows shown through their parent's flag (`sections` of `published` articles), as
/// course and blog apps write them: `exists (select 1 from articles a where a.id =
/// article_id and a.status = 'published')`. Each shape came from a course platform and
/// a church app (round thirty-two).
@Suite struct DraftPublishedChildTests {
    /// The simplest: the one section pointed at the first article, a draft, so no one
    /// read any section, and anon's `none` hid what every visitor reads. A section now
    /// points at a draft and one more at a published article.
    @Test func aSectionOfAPublishedArticleIsShown() throws {
        let draft = try DraftRealProjectShapesTests.draft("publishedchild", """
            create table public.articles (
              id uuid primary key default gen_random_uuid(), title text not null, status text not null default 'draft');
            alter table public.articles enable row level security;
            create policy "read published" on public.articles for select using (status = 'published');
            create table public.sections (
              id uuid primary key default gen_random_uuid(), article_id uuid not null references public.articles, body text);
            alter table public.sections enable row level security;
            create policy "read sections" on public.sections for select
              using (exists (select 1 from public.articles a where a.id = article_id and a.status = 'published'));
            """)
        let sections = try #require(draft.plan.relations.first { $0.name == "sections" })
        #expect(sections.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// `a.is_published or a.author_id = auth.uid()` inside the child's EXISTS: taken whole
    /// as the owner rule, anon "owned" the sections of published articles, and ben "saw
    /// other users' rows" in ava's published one (a made-up DANGER). A child row is the
    /// persona's where its parent's author is.
    @Test func aPublishedParentMakesNoOneTheChildsOwner() throws {
        let draft = try DraftRealProjectShapesTests.draft("publishedauthor", """
            create table public.articles (id uuid primary key default gen_random_uuid(), title text not null,
              is_published boolean not null default false, author_id uuid references auth.users (id));
            alter table public.articles enable row level security;
            create policy "read" on public.articles for select using (is_published or author_id = auth.uid());
            create table public.sections (
              id uuid primary key default gen_random_uuid(), article_id uuid not null references public.articles, body text);
            alter table public.sections enable row level security;
            create policy "read sections" on public.sections for select using (exists (select 1 from public.articles a
              where a.id = article_id and (a.is_published or a.author_id = auth.uid())));
            """)
        let sections = try #require(draft.plan.relations.first { $0.name == "sections" })
        #expect(sections.owner?.contains("is_published") == false, "\(draft.yaml)")
        #expect(sections.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Courses made only as the parents of the personas' enrollments: their rows got no
    /// published one (the showing flags were left out of a parent's rows), so anon's read
    /// of every published course went unseen (a church app's courses, `none`).
    @Test func aParentOfThePersonasRowsGetsAPublishedRowToo() throws {
        let draft = try DraftRealProjectShapesTests.draft("publishedparent", """
            create table public.courses (id uuid primary key default gen_random_uuid(), title text not null,
              status text default 'draft' check (status in ('draft', 'published')));
            alter table public.courses enable row level security;
            create policy "read published" on public.courses for select using (status = 'published');
            create table public.enrollments (id uuid primary key default gen_random_uuid(),
              course_id uuid not null references public.courses, user_id uuid not null references auth.users);
            alter table public.enrollments enable row level security;
            create policy "own enrollments" on public.enrollments for all to authenticated
              using (user_id = auth.uid()) with check (user_id = auth.uid());
            """)
        let courses = try #require(draft.plan.relations.first { $0.name == "courses" })
        #expect(courses.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// `a.status = 'published' or has_role(auth.uid(), 'admin')` inside the child's
    /// EXISTS, beside the article's `created_by`: that policy made `articles` a table
    /// "saying who a user is", its status a role, and no article was published: anon's
    /// read of every published article and section went unseen. An admin check is no
    /// owner rule either.
    @Test func anAdminCheckBesideAPublishedParentNamesNoRole() throws {
        let draft = try DraftRealProjectShapesTests.draft("publishedadmin", """
            create table public.user_roles (user_id uuid not null references auth.users on delete cascade,
              role text not null, primary key (user_id, role));
            alter table public.user_roles enable row level security;
            create policy "own roles" on public.user_roles for select using (user_id = auth.uid());
            create function public.has_role(_uid uuid, _role text) returns boolean language sql stable security definer
              set search_path = '' as $$ select exists (select 1 from public.user_roles where user_id = _uid and role = _role) $$;
            create table public.articles (id uuid primary key default gen_random_uuid(), title text not null,
              status text not null default 'draft', created_by uuid references auth.users (id));
            alter table public.articles enable row level security;
            create policy "read published" on public.articles for select
              using (status = 'published' or public.has_role(auth.uid(), 'admin'));
            create table public.sections (
              id uuid primary key default gen_random_uuid(), article_id uuid not null references public.articles, body text);
            alter table public.sections enable row level security;
            create policy "read sections" on public.sections for select using (exists (select 1 from public.articles a
              where a.id = article_id and (a.status = 'published' or public.has_role(auth.uid(), 'admin'))));
            """)
        let articles = try #require(draft.plan.relations.first { $0.name == "articles" })
        let sections = try #require(draft.plan.relations.first { $0.name == "sections" })
        #expect(sections.owner == nil, "\(draft.yaml)")
        #expect(articles.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(sections.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
