import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agePast, api, postForm, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Quizzes (issue 10) against a real server: grading on the server, no answer leaking before submission,
 * deadlines, attempt limits, one open attempt, concurrent ends, privacy, snapshots, and course progress.
 */
let server: InProcessServer;
let admin: string;
let learner: string;
let other: string;
let learnerWeb: string;
const ORG = "nordlys.localhost";

beforeAll(async () => {
  server = await startInProcess();
  execTenant(server, 2, "insert into users (email, first_name, role) values ('other@nordlys.test', 'Olga', 'learner')");
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  other = insertSession(server, { organizationId: 2 }, { email: "other@nordlys.test", kind: "api" });
  learnerWeb = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
});
afterAll(() => server?.stop());

const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });

// Distinctive answer texts, so a leak shows up as a plain substring anywhere in a reply.
const SECRET = {
  single: "Zanzibar-korrekt",
  multipleA: "Kobolt-rigtig",
  multipleB: "Nikkel-rigtig",
  text: "Fotosyntese",
  explanation: "Forklaring-hemmelig",
};

function questions() {
  return [
    {
      type: "single",
      prompt: "Hvilken by?",
      explanation: SECRET.explanation,
      options: [
        { text: "Oslo-forkert", correct: false },
        { text: SECRET.single, correct: true },
      ],
    },
    {
      type: "multiple",
      prompt: "Hvilke metaller?",
      options: [
        { text: SECRET.multipleA, correct: true },
        { text: SECRET.multipleB, correct: true },
        { text: "Træ-forkert", correct: false },
      ],
    },
    { type: "true_false", prompt: "Jorden er rund.", correct_answer: true },
    { type: "text", prompt: "Hvad hedder processen?", accepted: [SECRET.text, "photo synthesis"] },
  ];
}

async function quizInCourse(fields: Record<string, unknown> = {}, course: Record<string, unknown> = {}) {
  const quiz = await call("POST", "quizzes", { title: "Naturquiz", pass_min: 3, questions: questions(), ...fields });
  expect(quiz.status, quiz.body).toBe(201);
  const c = (
    await call("POST", "courses", { title: "Naturkursus", type: "series", published: true, allow_quizzes: true, ...course })
  ).json().payload;
  const intro = (await call("POST", "lessons", { course_id: c.id, title: "Intro", kind: "text", body: "<p>Hej</p>" })).json().payload;
  const attached = await call("POST", `quizzes/${quiz.json().payload.id}/attach`, { course_id: c.id });
  expect(attached.status, attached.body).toBe(201);
  return {
    quiz: quiz.json().payload,
    courseId: c.id as number,
    introId: intro.id as number,
    lessonId: attached.json().payload.id as number,
  };
}

type Q = { id: number; type: string; options: Array<{ id: string; text: string }> };
/** The right answers, worked out from the option texts (the learner's reply has no flags). */
function rightAnswers(qs: Q[]) {
  return qs.map((q) => {
    if (q.type === "single") return { question_id: q.id, choices: q.options.filter((o) => o.text === SECRET.single).map((o) => o.id) };
    if (q.type === "multiple") return { question_id: q.id, choices: q.options.filter((o) => o.text.endsWith("-rigtig")).map((o) => o.id) };
    if (q.type === "true_false") return { question_id: q.id, choices: ["true"] };
    return { question_id: q.id, text: "  foto SYNTESE " };
  });
}

/**
 * Option texts are the choices, so they are shown; what must never show before submission is which are
 * right, the accepted texts and the explanations (translations in the page hold the word "explanation"
 * as a key, so the structural checks look for answer-shaped JSON).
 */
function expectNoSecrets(body: string) {
  for (const secret of [SECRET.text, "photo synthesis", SECRET.explanation]) expect(body).not.toContain(secret);
  expect(body).not.toMatch(
    /"correct"\s*:\s*(true|false)|"correct_choices"|"accepted"\s*:\s*\[|"correct_answer"\s*:\s*(true|false)|"explanation"\s*:\s*""/,
  );
}

describe("taking a quiz", () => {
  it("grades on the server, reveals nothing before submission, and completes the lesson and course on a pass", async () => {
    const { quiz, courseId, introId, lessonId } = await quizInCourse();
    await call("POST", "lesson-progresses", { lesson_id: introId, completed: true }, learner);

    // The generic completion paths refuse a quiz lesson.
    const sneaky = await call("POST", "lesson-progresses", { lesson_id: lessonId, completed: true }, learner);
    expect(sneaky.status).toBe(422);
    const formPost = await postForm(server, ORG, `/courses/${courseId}/lessons/${lessonId}`, { intent: "complete" }, learnerWeb);
    expect(formPost.status).toBe(400);
    expect((await call("GET", `lesson-progresses/course/${courseId}`, undefined, learner)).json().payload.completed_lessons).toBe(1);

    // Learners read only the summary.
    const read = await call("GET", `quizzes/${quiz.id}`, undefined, learner);
    expect(read.status).toBe(200);
    expectNoSecrets(read.body);
    expect(read.body).not.toContain(SECRET.multipleA);

    const started = await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, learner);
    expect(started.status, started.body).toBe(201);
    const attempt = started.json().payload;
    expect(attempt).toMatchObject({ status: "in_progress", lesson_id: lessonId, course_id: courseId, attempt_number: 1, score: null });
    // Starting again gives the same open attempt.
    const again = await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, learner);
    expect(again.status).toBe(200);
    expect(again.json().payload.id).toBe(attempt.id);

    // Every reply of an open attempt, and the page, is searched for the answers.
    const replies = [started.body, again.body];
    const answers = rightAnswers(attempt.questions);
    // Answering the same question twice keeps the last answer: first a wrong one, then the right one.
    const wrongFirst = await call(
      "POST",
      "quizzes/submissions/answers",
      { submission_id: attempt.id, answers: [{ question_id: answers[0].question_id, choices: [attempt.questions[0].options[0].id] }] },
      learner,
    );
    expect(wrongFirst.status, wrongFirst.body).toBe(200);
    replies.push(wrongFirst.body);
    const saved = await call("POST", "quizzes/submissions/answers", { submission_id: attempt.id, answers, current: 3 }, learner);
    expect(saved.status, saved.body).toBe(200);
    expect(saved.json().payload).toMatchObject({ answered_count: 4, current: 3 });
    replies.push(saved.body);
    replies.push((await call("GET", `quizzes/submissions/${attempt.id}`, undefined, learner)).body);
    replies.push((await call("GET", "quizzes/submissions", undefined, learner)).body);
    replies.push((await call("GET", "quizzes", undefined, learner)).body);
    replies.push((await call("GET", "quizzes/search?q=Natur", undefined, learner)).body);
    const page = await request(server.port, ORG, `/courses/${courseId}/lessons/${lessonId}`, { headers: { Cookie: learnerWeb } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-testid="quiz-question"');
    const data = await request(
      server.port,
      ORG,
      `/courses/${courseId}/lessons/${lessonId}?_data=pages%2Fcourses%2F%24id%2Flessons%2F%24lessonId`,
      { headers: { Cookie: learnerWeb } },
    );
    expect(data.status).toBe(200);
    const own = await request(server.port, ORG, `/quizzes/${quiz.id}`, { headers: { Cookie: learnerWeb } });
    expect(own.status).toBe(200);
    for (const body of [...replies, page.body, data.body, own.body]) expectNoSecrets(body);

    // Another learner cannot see, answer or end it.
    expect((await call("GET", `quizzes/submissions/${attempt.id}`, undefined, other)).status).toBe(404);
    expect((await call("POST", "quizzes/submissions/answers", { submission_id: attempt.id, answers: [] }, other)).status).toBe(404);
    expect((await call("POST", `quizzes/submissions/end/${attempt.id}`, undefined, other)).status).toBe(404);
    expect((await call("GET", "quizzes/submissions", undefined, other)).json().payload.data).toEqual([]);

    // 50 concurrent ends: one result.
    const ends = await Promise.all(
      Array.from({ length: 50 }, () => call("POST", `quizzes/submissions/end/${attempt.id}`, undefined, learner)),
    );
    expect(ends.every((r) => r.status === 200)).toBe(true);
    const results = new Set(ends.map((r) => JSON.stringify({ score: r.json().payload.score, ended: r.json().payload.ended_at })));
    expect(results.size).toBe(1);
    const result = ends[0].json().payload;
    expect(result).toMatchObject({ status: "passed", score: 100, correct_count: 4, passed: true });
    expect(result.questions[0]).toMatchObject({ correct: true, explanation: SECRET.explanation });
    expect(result.questions[3].accepted).toContain(SECRET.text);

    const rows = execTenantAll(`select count(*) as n from quiz_attempts where quiz_id = ${quiz.id}`);
    expect(rows).toBe(1);
    const progress = (await call("GET", `lesson-progresses/course/${courseId}`, undefined, learner)).json().payload;
    expect(progress).toMatchObject({ completed_lessons: 2, completed: true });

    // Admins see it; the CSV neutralises formula-like cells.
    execTenant(server, 2, "update users set first_name = '=HYPERLINK(\"x\")' where email = 'learner@nordlys.test'");
    const csv = await call("GET", `quizzes/${quiz.id}/export`);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain("learner@nordlys.test");
    expect(csv.body).toContain("'=HYPERLINK");
    expect((await call("GET", `quizzes/submissions/${attempt.id}`)).status).toBe(200);
    // After a pass there is no retake.
    expect((await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, learner)).json().payload.code).toBe("already_passed");
  });

  it("fails, then retakes while attempts remain, and refuses beyond the limit", async () => {
    const { quiz } = await quizInCourse({ title: "Begrænset", max_attempts: 2, pass_min: 4 });
    for (let n = 1; n <= 2; n++) {
      const a = (await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, other)).json().payload;
      expect(a.attempt_number).toBe(n);
      await call(
        "POST",
        "quizzes/submissions/answers",
        { submission_id: a.id, answers: [{ question_id: a.questions[2].id, choices: ["false"] }] },
        other,
      );
      const ended = (await call("POST", `quizzes/submissions/end/${a.id}`, undefined, other)).json().payload;
      expect(ended).toMatchObject({ status: "failed", score: 0, passed: false });
    }
    const third = await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, other);
    expect(third.status).toBe(403);
    expect(third.json().payload).toMatchObject({ code: "no_attempts_left", message: "Du har brugt alle dine forsøg på denne quiz." });
  });

  it("refuses answers and submissions after the deadline, closing the attempt on what was saved in time", async () => {
    const { quiz } = await quizInCourse({ title: "Frist", deadline: new Date(Date.now() + 3600_000).toISOString(), pass_min: 1 });
    const a = (await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, learner)).json().payload;
    const answers = rightAnswers(a.questions);
    await call("POST", "quizzes/submissions/answers", { submission_id: a.id, answers: [answers[2]] }, learner);
    agePast(server, 2, "update quizzes set deadline = ? where id = ?", Math.floor(Date.now() / 1000) - 60, quiz.id);
    const late = await call("POST", "quizzes/submissions/answers", { submission_id: a.id, answers }, learner);
    expect(late.status).toBe(403);
    expect(late.json().payload).toMatchObject({ code: "deadline_passed" });
    const end = await call("POST", `quizzes/submissions/end/${a.id}`, undefined, learner);
    expect(end.status).toBe(403);
    const after = (await call("GET", `quizzes/submissions/${a.id}`, undefined, learner)).json().payload;
    expect(after).toMatchObject({ status: "passed", correct_count: 1, ended_by_deadline: true });
    expect((await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, other)).json().payload.code).toBe("deadline_passed");
  });

  it("keeps one open attempt per learner and quiz, even when 50 starts arrive at once", async () => {
    const { quiz } = await quizInCourse({ title: "Samtidig", pass_min: 1 });
    const starts = await Promise.all(Array.from({ length: 50 }, () => call("POST", "quizzes/submissions", { quiz_id: quiz.id }, other)));
    expect(starts.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(new Set(starts.map((r) => r.json().payload.id)).size).toBe(1);
    expect(starts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(execTenantAll(`select count(*) as n from quiz_attempts where quiz_id = ${quiz.id}`)).toBe(1);
  });

  it("shows 'could not be loaded' for a quiz lesson without a quiz, until a quiz is linked to it", async () => {
    const { quiz, courseId } = await quizInCourse({ title: "Link" });
    const lesson = (await call("POST", "lessons", { course_id: courseId, title: "Tom quiz", kind: "quiz" })).json().payload;
    const player = () => request(server.port, ORG, `/courses/${courseId}/lessons/${lesson.id}`, { headers: { Cookie: learnerWeb } });
    const before = await player();
    expect(before.body).toContain('data-testid="quiz-failed"');
    expect(before.body).toContain("Quizzen kunne ikke indlæses. Genindlæs browservinduet, og prøv igen.");
    expect((await call("POST", `quizzes/${quiz.id}/attach`, { lesson_id: lesson.id }, learner)).status).toBe(403);
    expect((await call("POST", `quizzes/${quiz.id}/attach`, { lesson_id: lesson.id })).status).toBe(201);
    expect((await player()).body).toContain('data-testid="quiz-intro"');
  });

  it("keeps past results when the quiz is edited", async () => {
    const { quiz } = await quizInCourse({ title: "Snapshot", pass_min: 1 });
    const a = (await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, other)).json().payload;
    await call("POST", "quizzes/submissions/answers", { submission_id: a.id, answers: rightAnswers(a.questions) }, other);
    // The admin rewrites every question while the attempt is open; it is still graded as it was taken.
    const edited = await call("PUT", `quizzes/${quiz.id}`, {
      questions: [{ type: "true_false", prompt: "Ny", correct_answer: false }],
      pass_min: 1,
    });
    expect(edited.status, edited.body).toBe(200);
    const ended = (await call("POST", `quizzes/submissions/end/${a.id}`, undefined, other)).json().payload;
    expect(ended).toMatchObject({ score: 100, question_count: 4 });
    await call("PUT", `quizzes/${quiz.id}`, { questions: questions().slice(0, 2), pass_min: 2 });
    expect((await call("GET", `quizzes/submissions/${a.id}`, undefined, other)).json().payload).toMatchObject({
      score: 100,
      question_count: 4,
    });
  });

  it("validates quizzes: pass requirement within the question count, well-formed questions", async () => {
    const tooHigh = await call("POST", "quizzes", { title: "X", pass_min: 5, questions: questions() });
    expect(tooHigh.status).toBe(422);
    expect(tooHigh.json().payload.fields.pass_min[0]).toBe("Beståelseskravet kan ikke være større end antallet af spørgsmål.");
    const bad = await call("POST", "quizzes", {
      title: "Y",
      questions: [
        {
          type: "single",
          prompt: "?",
          options: [
            { text: "a", correct: true },
            { text: "b", correct: true },
          ],
        },
      ],
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json().payload.fields)).toContain("Markér præcis én svarmulighed som rigtig.");
    expect((await call("POST", "quizzes", { title: "Z" }, learner)).status).toBe(403);
  });

  it("hides quiz lessons of courses that do not allow quizzes, and their quizzes from learners", async () => {
    const { quiz, courseId, lessonId } = await quizInCourse({ title: "Skjult" }, { allow_quizzes: false });
    expect((await request(server.port, ORG, `/courses/${courseId}/lessons/${lessonId}`, { headers: { Cookie: learnerWeb } })).status).toBe(
      404,
    );
    expect((await call("GET", `quizzes/${quiz.id}`, undefined, learner)).status).toBe(404);
    expect((await call("POST", "quizzes/submissions", { quiz_id: quiz.id }, learner)).status).toBe(404);
    // A hidden quiz lesson does not hold the course back.
    const { introId } = {
      introId: (await call("GET", `lessons?course_id=${courseId}`)).json().payload.data.find((l: { kind: string }) => l.kind === "text").id,
    };
    const done = await call("POST", "lesson-progresses", { lesson_id: introId, completed: true }, learner);
    expect(done.json().payload.course_completed).toBe(true);
    expect((await call("GET", `lesson-progresses/course/${courseId}`, undefined, learner)).json().payload).toMatchObject({
      lessons: 1,
      percent: 100,
    });
  });

  it("takes a quiz with form posts only (no JavaScript): start, answer, confirm unanswered, submit", async () => {
    const { quiz, courseId, lessonId } = await quizInCourse({ title: "Formular", pass_min: 1 });
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "other@nordlys.test", kind: "web" }));
    const player = `/courses/${courseId}/lessons/${lessonId}`;
    const step = (fields: Record<string, string>) =>
      postForm(server, ORG, `/quizzes/${quiz.id}`, { returnTo: player, lesson_id: String(lessonId), ...fields }, cookie);
    const start = await step({ intent: "start" });
    expect(start.status).toBe(302);
    expect(start.headers.location).toBe(player);
    let page = await request(server.port, ORG, player, { headers: { Cookie: cookie } });
    expect(page.body).toContain("Spørgsmål 1 af 4");
    const attemptId = page.body.match(/name="attempt_id" value="(\d+)"/)![1];
    const questionId = page.body.match(/name="question_id" value="(\d+)"/)![1];
    const trueFalse = await step({ attempt_id: attemptId, question_id: questionId, go: "1" });
    expect(trueFalse.headers.location).toBe(player);
    page = await request(server.port, ORG, player, { headers: { Cookie: cookie } });
    expect(page.body).toContain("Spørgsmål 2 af 4");
    const submit = await step({
      attempt_id: attemptId,
      question_id: page.body.match(/name="question_id" value="(\d+)"/)![1],
      intent: "submit",
    });
    expect(submit.headers.location).toBe(`${player}?quiz_confirm=1`);
    page = await request(server.port, ORG, submit.headers.location!, { headers: { Cookie: cookie } });
    expect(page.body).toContain("Ubesvarede spørgsmål: 4");
    const confirmed = await step({ attempt_id: attemptId, intent: "submit", confirm: "1" });
    page = await request(server.port, ORG, confirmed.headers.location!, { headers: { Cookie: cookie } });
    expect(page.body).toContain('data-testid="quiz-result"');
    expect(page.body).toContain("0 %");
    expect(page.body).toContain(SECRET.explanation);
    expect(page.body).toContain("Tag quizzen igen");
  });
});

function execTenantAll(sql: string): number {
  const db = tenantDb(server, 2);
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}
