CREATE TABLE `certificate_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`layout` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `certificates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`course_id` integer,
	`issued_for_course_id` integer NOT NULL,
	`template_id` integer,
	`learner_name` text NOT NULL,
	`course_title` text NOT NULL,
	`locale` text NOT NULL,
	`score` integer,
	`layout` text NOT NULL,
	`issued_at` integer NOT NULL,
	`pdf_file_id` integer,
	`revoked_at` integer,
	`revoked_reason` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `certificate_templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`pdf_file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_public_id_unique` ON `certificates` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_user_course_unique` ON `certificates` (`user_id`,`issued_for_course_id`);--> statement-breakpoint
CREATE TABLE `course_certificate_templates` (
	`course_id` integer PRIMARY KEY NOT NULL,
	`template_id` integer NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `certificate_templates`(`id`) ON UPDATE no action ON DELETE cascade
);
