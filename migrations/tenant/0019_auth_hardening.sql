CREATE INDEX `magic_links_user_created_idx` ON `magic_links` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `password_resets_user_created_idx` ON `password_resets` (`user_id`,`created_at`);--> statement-breakpoint
-- Spec §9: API tokens live 30 days (2,592,000 s). Tokens made when the screens allowed up to 365 days are
-- cut back to 30 days from their creation; those older than that stop working now (the screen shows them
-- as expired and a new one takes a moment to make).
UPDATE `api_tokens` SET `expires_at` = `created_at` + 2592000 WHERE `expires_at` > `created_at` + 2592000;
