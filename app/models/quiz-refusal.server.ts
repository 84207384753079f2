/** Why a learner's step on a quiz was refused: the code the page and /api answer with. */
export type QuizRefusal =
  | "deadline_passed"
  | "no_attempts_left"
  | "already_passed"
  | "no_questions"
  | "ended"
  | "not_found"
  | "invalid_answer";

export class QuizError extends Error {
  constructor(
    public code: QuizRefusal,
    public status = 403,
  ) {
    super(code);
  }
}
