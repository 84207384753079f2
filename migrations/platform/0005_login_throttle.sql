-- Issue 44: failed sign-ins are counted per account and per client, one row each, read by primary key on every
-- attempt (docs/decisions/007-authentication.md "Guessing passwords"). The old log of single failures only ever
-- held an hour's worth; it goes.
CREATE TABLE `platform_login_throttle` (
	`user_id` integer NOT NULL,
	`client` text NOT NULL,
	`failures` integer NOT NULL,
	`window_start` integer NOT NULL,
	`last_failure_at` integer NOT NULL,
	`wait_until` integer,
	`alerted_at` integer,
	PRIMARY KEY(`user_id`, `client`),
	FOREIGN KEY (`user_id`) REFERENCES `super_admins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `platform_login_throttle_last_failure_idx` ON `platform_login_throttle` (`last_failure_at`);--> statement-breakpoint
DROP TABLE `platform_login_failures`;