CREATE TABLE `reminder_digests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`week` text NOT NULL,
	`status` text NOT NULL,
	`overdue` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`retry_at` integer,
	`claimed_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminder_digests_user_week_unique` ON `reminder_digests` (`user_id`,`week`);--> statement-breakpoint
CREATE INDEX `reminder_digests_sending_idx` ON `reminder_digests` (`status`) WHERE status = 'sending';--> statement-breakpoint
CREATE TABLE `reminder_opt_outs` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reminder_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`on_assignment` integer DEFAULT true NOT NULL,
	`before_due` integer DEFAULT true NOT NULL,
	`days_before` integer DEFAULT 3 NOT NULL,
	`on_due_date` integer DEFAULT true NOT NULL,
	`while_overdue` integer DEFAULT true NOT NULL,
	`weekly_digest` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "reminder_settings_single_row" CHECK("reminder_settings"."id" = 1),
	CONSTRAINT "reminder_settings_days_before" CHECK("reminder_settings"."days_before" between 1 and 30)
);
--> statement-breakpoint
CREATE TABLE `reminders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`assignment_id` integer NOT NULL,
	`kind` text NOT NULL,
	`due_on` text NOT NULL,
	`week` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`retry_at` integer,
	`claimed_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminders_key_unique` ON `reminders` (`user_id`,`assignment_id`,`kind`,`due_on`,`week`);--> statement-breakpoint
CREATE INDEX `reminders_sending_idx` ON `reminders` (`status`) WHERE status = 'sending';