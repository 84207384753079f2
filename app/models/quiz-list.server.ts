import { and, count, gt, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { quizzes } from "../../db/tenant";
import { contains } from "../utils/pagination";
import type { QuizListQuery } from "./forms/quiz-list";
import { listOrder, listPage } from "./list-page.server";

/**
 * The quizzes management list (issue 50; docs/decisions/046-management-lists.md): searched by title, filtered to
 * quizzes used in a course's lesson or not and by their deadline, sorted by any column it shows or when made or
 * changed, a page at a time. Each row's questions, lessons and finished attempts are counted for the page's
 * quizzes only, unless the list is sorted by one of them. Who may read it is the screen's capability (write:quiz).
 */
// The quiz's id named with its table: in a select list drizzle writes a column without it, and a bare "id" in
// these subqueries would be their own table's (quiz_questions.id, quiz_attempts.id).
const quizId = sql.raw('"quizzes"."id"');
const questions = sql<number>`(select count(*) from quiz_questions qq where qq.quiz_id = ${quizId})`;
const lessons = sql<number>`(select count(*) from quiz_lessons ql where ql.quiz_id = ${quizId})`;
// Finished attempts: all of the quiz's less its open ones, each counted in an index alone (quiz_attempts_number_unique,
// and quiz_attempts_open_unique, which holds only the open ones) rather than every attempt's row read for its end
// (a sort by attempts over 200,000 of them: 300 → 9 ms).
const attempts = sql<number>`((select count(*) from quiz_attempts qa where qa.quiz_id = ${quizId})
  - (select count(*) from quiz_attempts qa where qa.quiz_id = ${quizId} and qa.ended_at is null))`;
const used = sql`exists (select 1 from quiz_lessons ql where ql.quiz_id = ${quizId})`;

export function quizList(db: TenantConn, query: QuizListQuery, now = new Date()) {
  const { use, deadline } = query.filters;
  const conditions: (SQL | undefined)[] = [
    query.q ? contains(quizzes.title, query.q) : undefined,
    use === "used" ? used : use === "unused" ? sql`not ${used}` : undefined,
    deadline === "open" ? gt(quizzes.deadline, now) : undefined,
    deadline === "passed" ? lte(quizzes.deadline, now) : undefined,
    deadline === "none" ? isNull(quizzes.deadline) : undefined,
  ];
  const where = and(...conditions);
  const order = listOrder(
    query,
    {
      title: quizzes.title,
      questions,
      lessons,
      attempts,
      // No deadline is the furthest: last going forward, first going back.
      deadline: [sql`${quizzes.deadline} is null`, quizzes.deadline],
      created: quizzes.createdAt,
      updated: quizzes.updatedAt,
    },
    quizzes.id,
  );
  return listPage(query, {
    count: () => db.select({ n: count() }).from(quizzes).where(where).get()?.n ?? 0,
    rows: (limit, offset) =>
      db
        .select({ quiz: quizzes, questions, lessons, attempts })
        .from(quizzes)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .all(),
  });
}
