ALTER TABLE `xapi_credentials` ADD `purpose` text DEFAULT 'client' NOT NULL;--> statement-breakpoint
UPDATE `xapi_credentials` SET `purpose` = 'launch' WHERE `registration` IS NOT NULL AND `user_id` IS NULL;--> statement-breakpoint
UPDATE `xapi_credentials` SET `purpose` = 'lms' WHERE `name` = 'Lectern (the LMS)' AND `user_id` IS NULL AND `scope` = 'all';
