CREATE TABLE `platform_login_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `platform_login_failures_email_created_idx` ON `platform_login_failures` (`email`,`created_at`);--> statement-breakpoint
CREATE TABLE `platform_password_resets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`user_id` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `super_admins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platform_password_resets_token_hash_unique` ON `platform_password_resets` (`token_hash`);--> statement-breakpoint
CREATE TABLE `platform_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`two_factor_pending` integer DEFAULT false NOT NULL,
	`two_factor_secret` text,
	`two_factor_issued_at` integer,
	`two_factor_attempts` integer DEFAULT 0 NOT NULL,
	`two_factor_sends` integer DEFAULT 0 NOT NULL,
	`user_id` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `super_admins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platform_sessions_token_hash_unique` ON `platform_sessions` (`token_hash`);--> statement-breakpoint
CREATE TABLE `super_admins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`phone` text,
	`password_hash` text,
	`language` text,
	`managed_externally` integer DEFAULT false NOT NULL,
	`disabled_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `super_admins_email_unique` ON `super_admins` (`email`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `two_factor_required` integer DEFAULT false NOT NULL;