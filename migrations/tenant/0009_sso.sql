CREATE TABLE `sso_drivers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`kind` text NOT NULL,
	`label` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`issuer` text,
	`authorization_url` text,
	`token_url` text,
	`userinfo_url` text,
	`client_id` text NOT NULL,
	`client_secret_sealed` text NOT NULL,
	`scopes` text DEFAULT 'openid email profile' NOT NULL,
	`subject_claim` text DEFAULT 'sub' NOT NULL,
	`email_claim` text DEFAULT 'email' NOT NULL,
	`first_name_claim` text DEFAULT 'given_name' NOT NULL,
	`last_name_claim` text DEFAULT 'family_name' NOT NULL,
	`create_users` integer DEFAULT false NOT NULL,
	`default_role` text DEFAULT 'learner' NOT NULL,
	`default_group_ids` text DEFAULT '[]' NOT NULL,
	`managed_externally` integer DEFAULT true NOT NULL,
	`link_by_email` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "sso_drivers_kind_check" CHECK("sso_drivers"."kind" in ('oidc','oauth2'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_drivers_slug_unique` ON `sso_drivers` (`slug`);--> statement-breakpoint
CREATE TABLE `sso_identities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `sso_drivers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_identities_issuer_subject_unique` ON `sso_identities` (`issuer`,`subject`);--> statement-breakpoint
CREATE INDEX `sso_identities_user_idx` ON `sso_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `sso_logins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`state_hash` text NOT NULL,
	`driver_id` integer NOT NULL,
	`binding_hash` text NOT NULL,
	`kind` text NOT NULL,
	`code_verifier` text NOT NULL,
	`nonce` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`redirect_to` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `sso_drivers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_logins_state_unique` ON `sso_logins` (`state_hash`);--> statement-breakpoint
CREATE INDEX `sso_logins_expires_idx` ON `sso_logins` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sso_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`password_login` integer DEFAULT true NOT NULL,
	CONSTRAINT "sso_settings_single_row" CHECK("sso_settings"."id" = 1)
);
