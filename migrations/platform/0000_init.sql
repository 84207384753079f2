CREATE TABLE `organizations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`domain` text,
	`url_prefix` text,
	`custom_domain` text,
	`language` text DEFAULT 'en' NOT NULL,
	`favicon` text,
	`logo` text,
	`login_background` text,
	`footer` text,
	`featured_course` integer,
	`bcc` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "organizations_language_check" CHECK("organizations"."language" in ('en','pl','da','no','sv'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_domain_unique` ON `organizations` (`domain`);--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_url_prefix_unique` ON `organizations` (`url_prefix`);--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_custom_domain_unique` ON `organizations` (`custom_domain`);