-- A learning path's rewards (issue 49): its certificate (one per person, path and cycle, beside the one per course),
-- the template it is printed from and a badge it gives; the "path completed" activity where the leaderboard is set up.
DROP INDEX `certificates_user_course_cycle_unique`;--> statement-breakpoint
ALTER TABLE `certificates` ADD `issued_for_path_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_user_path_cycle_unique` ON `certificates` (`user_id`,`issued_for_path_id`,`cycle`) WHERE "certificates"."issued_for_path_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_user_course_cycle_unique` ON `certificates` (`user_id`,`issued_for_course_id`,`cycle`) WHERE "certificates"."issued_for_path_id" is null;--> statement-breakpoint
ALTER TABLE `learning_paths` ADD `certificate_template_id` integer REFERENCES certificate_templates(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `learning_paths` ADD `badge_id` integer REFERENCES badges(id) ON DELETE set null;--> statement-breakpoint
INSERT INTO `leaderboard_activities` (`kind`, `points`, `daily_cap`) SELECT 'path_completed', 100, NULL WHERE EXISTS (SELECT 1 FROM `leaderboard_settings`) ON CONFLICT DO NOTHING;
