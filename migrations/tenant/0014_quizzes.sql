CREATE TABLE `quiz_answers` (
	`attempt_id` integer NOT NULL,
	`question_id` integer NOT NULL,
	`choices` text NOT NULL,
	`text` text,
	`correct` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`attempt_id`, `question_id`),
	FOREIGN KEY (`attempt_id`) REFERENCES `quiz_attempts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `quiz_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`quiz_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`lesson_id` integer,
	`course_id` integer,
	`attempt_number` integer NOT NULL,
	`questions` text NOT NULL,
	`pass_min` integer NOT NULL,
	`current` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`score` integer,
	`correct_count` integer,
	`passed` integer,
	`expired` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quiz_attempts_number_unique` ON `quiz_attempts` (`quiz_id`,`user_id`,`attempt_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `quiz_attempts_open_unique` ON `quiz_attempts` (`quiz_id`,`user_id`) WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX `quiz_attempts_user_idx` ON `quiz_attempts` (`user_id`);--> statement-breakpoint
CREATE TABLE `quiz_lessons` (
	`lesson_id` integer PRIMARY KEY NOT NULL,
	`quiz_id` integer NOT NULL,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quiz_lessons_quiz_idx` ON `quiz_lessons` (`quiz_id`);--> statement-breakpoint
CREATE TABLE `quiz_questions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`quiz_id` integer NOT NULL,
	`type` text NOT NULL,
	`prompt` text NOT NULL,
	`explanation` text DEFAULT '' NOT NULL,
	`options` text NOT NULL,
	`accepted` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "quiz_questions_type_check" CHECK("quiz_questions"."type" in ('single','multiple','true_false','text'))
);
--> statement-breakpoint
CREATE INDEX `quiz_questions_quiz_idx` ON `quiz_questions` (`quiz_id`,`position`);--> statement-breakpoint
CREATE TABLE `quizzes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`deadline` integer,
	`pass_min` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
