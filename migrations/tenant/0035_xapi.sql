-- Issue 47: the organization's Learning Record Store (docs/decisions/043-learning-record-store.md): its credentials,
-- statements with the agents and activities each names, documents, activities' definitions and attachments.
CREATE TABLE `xapi_activities` (
	`id` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `xapi_attachments` (
	`sha2` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`length` integer NOT NULL,
	`stored` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `xapi_credentials` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`key` text NOT NULL,
	`secret_hash` text NOT NULL,
	`scope` text NOT NULL,
	`actor` text,
	`actor_key` text,
	`registration` text,
	`user_id` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `xapi_credentials_key_unique` ON `xapi_credentials` (`key`);--> statement-breakpoint
CREATE INDEX `xapi_credentials_expires_idx` ON `xapi_credentials` (`expires_at`);--> statement-breakpoint
CREATE TABLE `xapi_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`activity_id` text DEFAULT '' NOT NULL,
	`agent_key` text DEFAULT '' NOT NULL,
	`registration` text DEFAULT '' NOT NULL,
	`document_id` text NOT NULL,
	`content_type` text NOT NULL,
	`body` blob NOT NULL,
	`etag` text NOT NULL,
	`updated` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `xapi_documents_key_unique` ON `xapi_documents` (`kind`,`activity_id`,`agent_key`,`registration`,`document_id`);--> statement-breakpoint
CREATE TABLE `xapi_statement_activities` (
	`seq` integer NOT NULL,
	`activity_id` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`activity_id`, `seq`, `role`),
	FOREIGN KEY (`seq`) REFERENCES `xapi_statements`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `xapi_statement_activities_seq_idx` ON `xapi_statement_activities` (`seq`);--> statement-breakpoint
CREATE TABLE `xapi_statement_agents` (
	`seq` integer NOT NULL,
	`agent_key` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`agent_key`, `seq`, `role`),
	FOREIGN KEY (`seq`) REFERENCES `xapi_statements`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `xapi_statement_agents_seq_idx` ON `xapi_statement_agents` (`seq`);--> statement-breakpoint
CREATE TABLE `xapi_statements` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`stored` integer NOT NULL,
	`timestamp` integer NOT NULL,
	`version` text NOT NULL,
	`actor_key` text NOT NULL,
	`verb_id` text NOT NULL,
	`object_type` text NOT NULL,
	`object_key` text NOT NULL,
	`registration` text,
	`voided` integer DEFAULT false NOT NULL,
	`credential_id` integer,
	`json` text NOT NULL,
	FOREIGN KEY (`credential_id`) REFERENCES `xapi_credentials`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `xapi_statements_id_unique` ON `xapi_statements` (`id`);--> statement-breakpoint
CREATE INDEX `xapi_statements_stored_idx` ON `xapi_statements` (`stored`);--> statement-breakpoint
CREATE INDEX `xapi_statements_actor_idx` ON `xapi_statements` (`actor_key`,`seq`);--> statement-breakpoint
CREATE INDEX `xapi_statements_verb_idx` ON `xapi_statements` (`verb_id`,`seq`);--> statement-breakpoint
CREATE INDEX `xapi_statements_object_idx` ON `xapi_statements` (`object_key`,`seq`);--> statement-breakpoint
CREATE INDEX `xapi_statements_registration_idx` ON `xapi_statements` (`registration`,`seq`);--> statement-breakpoint
CREATE INDEX `xapi_statements_credential_idx` ON `xapi_statements` (`credential_id`,`seq`);