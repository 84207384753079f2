CREATE TABLE `cmi5_au_states` (
	`registration_id` integer NOT NULL,
	`au_id` text NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`passed` integer DEFAULT false NOT NULL,
	`failed` integer DEFAULT false NOT NULL,
	`score` real,
	`waived_reason` text,
	`satisfied_at` integer,
	PRIMARY KEY(`registration_id`, `au_id`),
	FOREIGN KEY (`registration_id`) REFERENCES `package_registrations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `content_packages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lesson_id` integer NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`folder` text,
	`structure` text NOT NULL,
	`file_count` integer NOT NULL,
	`unpacked_bytes` integer NOT NULL,
	`uploaded_by` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `content_packages_lesson_unique` ON `content_packages` (`lesson_id`);--> statement-breakpoint
CREATE TABLE `package_launches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`registration_id` integer NOT NULL,
	`au_id` text NOT NULL,
	`session_id` text NOT NULL,
	`launch_mode` text NOT NULL,
	`credential_id` integer,
	`fetch_token_hash` text,
	`fetched_at` integer,
	`sent` text DEFAULT '[]' NOT NULL,
	`launched_at` integer NOT NULL,
	`last_statement_at` integer,
	`ended_at` integer,
	`ended_by` text,
	FOREIGN KEY (`registration_id`) REFERENCES `package_registrations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credential_id`) REFERENCES `xapi_credentials`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_launches_session_unique` ON `package_launches` (`session_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `package_launches_fetch_unique` ON `package_launches` (`fetch_token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `package_launches_credential_unique` ON `package_launches` (`credential_id`);--> statement-breakpoint
CREATE INDEX `package_launches_registration_idx` ON `package_launches` (`registration_id`,`au_id`);--> statement-breakpoint
CREATE TABLE `package_registrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lesson_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`registration` text NOT NULL,
	`started_at` integer NOT NULL,
	`satisfied_at` integer,
	`closed_at` integer,
	FOREIGN KEY (`lesson_id`) REFERENCES `lessons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_registrations_registration_unique` ON `package_registrations` (`registration`);--> statement-breakpoint
CREATE INDEX `package_registrations_learner_idx` ON `package_registrations` (`user_id`,`lesson_id`);