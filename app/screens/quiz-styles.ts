import type { LinksFunction } from "@remix-run/node";
import quizStyles from "~/styles/quiz.css";

/** The quiz screens' own stylesheet (kept apart from app.css). */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: quizStyles }];
