import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { LearnerBenchData } from "./learner";

/**
 * Quizzes in the learner bench's organization (issue 10): answering (`POST /api/quizzes/submissions/answers`)
 * and ending (`POST /api/quizzes/submissions/end/{id}`, which grades, records the result, completes the
 * quiz lesson and checks the course) for the bench's signed-in learners. Open attempts are written
 * straight into the database first, one per learner and quiz, so every measured `end` grades a fresh
 * attempt (past that many ends the rest would be the cheap "already ended" path; the count is printed).
 */
type Vary = () => { path?: string; method?: string; body?: string; headers?: Record<string, string> };
type Run = (load: {
  port: number;
  path: string;
  hosts: string[];
  vary?: Vary;
}) => Promise<{ rps: number; p50: number; p95: number; requests: number }>;

const QUIZZES = Number(process.env.BENCH_QUIZZES ?? 60);
const QUESTIONS = 10;

export async function benchQuizzes(big: LearnerBenchData, port: number, run: Run, baselineRps: number) {
  const org = fs.readdirSync(big.dataDir).find((f) => f.startsWith("org-"))!;
  const db = new Database(path.join(big.dataDir, org, "db.sqlite"));
  db.pragma("busy_timeout = 5000");
  const now = Math.floor(Date.now() / 1000);
  const learners = big.tokens.length; // the token of learner i is tokens[i - 1]
  const attempts: Array<{ token: string; id: number; questionIds: number[] }> = [];
  db.transaction(() => {
    for (let q = 1; q <= QUIZZES; q++) {
      const courseId = big.courseIds[q - 1];
      db.prepare("update courses set allow_quizzes = 1 where id = ?").run(courseId);
      const quizId = Number(
        db.prepare("insert into quizzes (title, pass_min) values (?, ?)").run(`Bench quiz ${q}`, QUESTIONS / 2).lastInsertRowid,
      );
      const snapshot = [];
      for (let i = 0; i < QUESTIONS; i++) {
        const options = [1, 2, 3, 4].map((o) => ({ id: String(o), text: `Option ${o}`, correct: o === 2 }));
        const id = Number(
          db
            .prepare("insert into quiz_questions (quiz_id, type, prompt, options, accepted, position) values (?, 'single', ?, ?, '[]', ?)")
            .run(quizId, `Question ${i + 1}`, JSON.stringify(options), i).lastInsertRowid,
        );
        snapshot.push({ id, type: "single", prompt: `Question ${i + 1}`, explanation: "", options, accepted: [] });
      }
      const lessonId = Number(
        db.prepare("insert into lessons (course_id, title, kind, position) values (?, ?, 'quiz', 1000)").run(courseId, `Quiz ${q}`)
          .lastInsertRowid,
      );
      db.prepare("insert into quiz_lessons (lesson_id, quiz_id) values (?, ?)").run(lessonId, quizId);
      const insert = db.prepare(
        "insert into quiz_attempts (quiz_id, user_id, lesson_id, course_id, attempt_number, questions, pass_min, current, started_at) values (?, ?, ?, ?, 1, ?, ?, 0, ?)",
      );
      for (let user = 1; user <= learners; user++) {
        const id = Number(insert.run(quizId, user, lessonId, courseId, JSON.stringify(snapshot), QUESTIONS / 2, now).lastInsertRowid);
        attempts.push({ token: big.tokens[user - 1], id, questionIds: snapshot.map((s) => s.id) });
      }
    }
  })();
  db.close();

  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });
  const answer = await run({
    port,
    path: "/api/quizzes/submissions/answers",
    hosts: [big.host],
    vary: () => {
      const a = pick(attempts);
      const answers = a.questionIds
        .slice(0, 3 + Math.floor(Math.random() * 3))
        .map((question_id, i) => ({ question_id, choices: [i % 4 === 3 ? "1" : "2"] }));
      return { method: "POST", body: JSON.stringify({ submission_id: a.id, answers, current: answers.length }), headers: auth(a.token) };
    },
  });
  let next = 0;
  const end = await run({
    port,
    path: "/api/quizzes/submissions/end/0",
    hosts: [big.host],
    vary: () => {
      const a = attempts[next++ % attempts.length];
      return { method: "POST", path: `/api/quizzes/submissions/end/${a.id}`, headers: auth(a.token) };
    },
  });
  const ratio = (a: number) => Math.round((a / baselineRps) * 1000) / 1000;
  console.log(
    `\nquizzes: ${QUIZZES} quizzes of ${QUESTIONS} questions, ${attempts.length} open attempts (${Math.min(next, attempts.length)} ended by the end run)`,
  );
  console.log("requests/s   p50 ms   p95 ms   vs baseline   what");
  console.log(
    `${String(answer.rps).padStart(10)} ${String(answer.p50).padStart(8)} ${String(answer.p95).padStart(8)} ${String(ratio(answer.rps)).padStart(13)}   answer (POST quizzes/submissions/answers)`,
  );
  console.log(
    `${String(end.rps).padStart(10)} ${String(end.p50).padStart(8)} ${String(end.p95).padStart(8)} ${String(ratio(end.rps)).padStart(13)}   end and grade (POST quizzes/submissions/end/{id})`,
  );
  return {
    answer: { rps: answer.rps, p95_ms: answer.p95, vs_baseline: ratio(answer.rps) },
    end: { rps: end.rps, p95_ms: end.p95, vs_baseline: ratio(end.rps), fresh_attempts: attempts.length },
  };
}
