ALTER TABLE `carousels` ADD `cover_file_id` integer;--> statement-breakpoint
ALTER TABLE `categories` ADD `cover_file_id` integer;