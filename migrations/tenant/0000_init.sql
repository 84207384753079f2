CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `courses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`type` text DEFAULT 'movie' NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`block_default_access` integer DEFAULT false NOT NULL,
	`prerequisite_course_id` integer,
	`category_id` integer,
	`allow_certificates` integer DEFAULT false NOT NULL,
	`allow_quizzes` integer DEFAULT false NOT NULL,
	`force_groups` integer DEFAULT false NOT NULL,
	`external_url` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`prerequisite_course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "courses_type_check" CHECK("courses"."type" in ('movie','series','download','external_link'))
);
--> statement-breakpoint
CREATE INDEX `courses_published_position_idx` ON `courses` (`published`,`position`);--> statement-breakpoint
CREATE INDEX `courses_category_idx` ON `courses` (`category_id`);