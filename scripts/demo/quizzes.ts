import type { TenantConn } from "../../db/open";
import { createCourse } from "../../app/models/course.server";
import { createLesson } from "../../app/models/lesson.server";
import { attachQuiz } from "../../app/models/quiz-lessons.server";
import { createQuiz } from "../../app/models/quiz-authoring.server";
import { questionSchema } from "../../app/models/forms/quizzes";

/**
 * Demo quizzes (issue 10): each demo organization gets a published course that allows quizzes, with a
 * short text lesson and a quiz lesson whose quiz has all four question types. Nordlys's takes its lessons
 * in order: its learners read the lesson before the quiz opens ("complete previous lessons" until then).
 * Acme's stays open, so the quiz is one click from the course page (and `npm run lighthouse` measures it).
 */
const CONTENT = {
  en: {
    course: "Security Awareness Check",
    description: "A short read on phishing and passwords, then a quiz to check what stuck. Pass with 3 of 4 correct.",
    lesson: "Phishing and passwords",
    body: "<p>Phishing mails imitate people and services you trust. Check the sender, hover over links before clicking, and never type your password on a page you reached from a mail.</p><p>A long passphrase beats a short, complex password. Use a password manager and turn on two-factor sign-in.</p>",
    quiz: "Security awareness quiz",
    inOrder: false,
    quizDescription: "Four questions on phishing and passwords.",
    questions: [
      {
        type: "single",
        prompt: "A mail asks you to confirm your password through a link. What do you do?",
        explanation: "Real services never ask for your password by mail. Report the mail instead.",
        options: [
          { text: "Click the link and confirm", correct: false },
          { text: "Report it as phishing", correct: true },
          { text: "Reply and ask if it is real", correct: false },
        ],
      },
      {
        type: "multiple",
        prompt: "Which of these make an account safer?",
        explanation: "A password manager and two-factor sign-in both help; reusing a password does not.",
        options: [
          { text: "A password manager", correct: true },
          { text: "Two-factor sign-in", correct: true },
          { text: "One password for every site", correct: false },
        ],
      },
      {
        type: "true_false",
        prompt: "A long passphrase is usually stronger than a short, complex password.",
        explanation: "Length adds far more guesses than symbols do.",
        correct_answer: true,
      },
      {
        type: "text",
        prompt: "What is the name for mails that imitate trusted senders to steal details?",
        explanation: "Phishing: the mail fishes for your details.",
        accepted: ["phishing"],
      },
    ],
  },
  da: {
    course: "Tjek din IT-sikkerhed",
    description: "En kort tekst om phishing og adgangskoder og en quiz, der tjekker, hvad du har lært. Bestå med 3 af 4 rigtige.",
    lesson: "Phishing og adgangskoder",
    body: "<p>Phishingmails efterligner personer og tjenester, du stoler på. Tjek afsenderen, hold musen over links, før du klikker, og skriv aldrig din adgangskode på en side, du kom til fra en mail.</p><p>En lang adgangssætning slår en kort, kompliceret adgangskode. Brug en adgangskodeadministrator, og slå totrinsbekræftelse til.</p>",
    quiz: "Quiz om IT-sikkerhed",
    inOrder: true,
    quizDescription: "Fire spørgsmål om phishing og adgangskoder.",
    questions: [
      {
        type: "single",
        prompt: "En mail beder dig bekræfte din adgangskode via et link. Hvad gør du?",
        explanation: "Rigtige tjenester beder aldrig om din adgangskode pr. mail. Anmeld mailen i stedet.",
        options: [
          { text: "Klikker og bekræfter", correct: false },
          { text: "Anmelder den som phishing", correct: true },
          { text: "Svarer og spørger, om den er ægte", correct: false },
        ],
      },
      {
        type: "multiple",
        prompt: "Hvilke af disse gør en konto mere sikker?",
        explanation: "En adgangskodeadministrator og totrinsbekræftelse hjælper begge; genbrug af adgangskoder gør ikke.",
        options: [
          { text: "En adgangskodeadministrator", correct: true },
          { text: "Totrinsbekræftelse", correct: true },
          { text: "Samme adgangskode overalt", correct: false },
        ],
      },
      {
        type: "true_false",
        prompt: "En lang adgangssætning er som regel stærkere end en kort, kompliceret adgangskode.",
        explanation: "Længde giver langt flere muligheder at gætte end tegn.",
        correct_answer: true,
      },
      {
        type: "text",
        prompt: "Hvad kaldes mails, der efterligner betroede afsendere for at stjæle oplysninger?",
        explanation: "Phishing: mailen fisker efter dine oplysninger.",
        accepted: ["phishing"],
      },
    ],
  },
};

export function seedDemoQuizzes(db: TenantConn, language: string) {
  const c = language === "da" ? CONTENT.da : CONTENT.en;
  db.transaction((tx) => {
    const course = createCourse(tx, {
      title: c.course,
      description: c.description,
      type: "series",
      published: true,
      allowQuizzes: true,
      sequentialLessons: c.inOrder,
      position: 100,
    });
    const lesson = createLesson(tx, {
      course_id: course.id,
      title: c.lesson,
      kind: "text",
      body: c.body,
      file_id: null,
      video_url: null,
      duration_seconds: null,
    });
    if (!lesson.ok) throw new Error(`demo lesson: ${lesson.message}`);
    const quiz = createQuiz(tx, {
      title: c.quiz,
      description: c.quizDescription,
      deadline: null,
      pass_min: 3,
      max_attempts: null,
      questions: c.questions.map((q) => questionSchema.parse(q)),
    });
    if (!quiz.ok) throw new Error(`demo quiz: ${quiz.message}`);
    const attached = attachQuiz(tx, quiz.value.id, course.id);
    if (!attached.ok) throw new Error(`demo quiz lesson: ${attached.message}`);
  });
}
