-- The signed-in /leaderboard kept as the home and course pages are (docs/decisions/039-learner-page-cache.md):
-- a third `content_version` row (id 3) moves with what a board shows of everyone (points, streaks, levels,
-- badges, people's names); `user_versions` also moves with a person's own badges and watch time. Names only,
-- and only when they change: a heartbeat moves the person's watch-credit clock in `users`, and saving a
-- profile sets the names as they were, neither of which any board shows.
INSERT INTO `content_version` (`id`, `version`) VALUES (3, 0);
--> statement-breakpoint
CREATE TRIGGER `content_version_points_totals_ai` AFTER INSERT ON `points_totals` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_points_totals_au` AFTER UPDATE ON `points_totals` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_points_totals_ad` AFTER DELETE ON `points_totals` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_points_histogram_ai` AFTER INSERT ON `points_histogram` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_points_histogram_au` AFTER UPDATE ON `points_histogram` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_points_histogram_ad` AFTER DELETE ON `points_histogram` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_learner_stats_ai` AFTER INSERT ON `learner_stats` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_learner_stats_au` AFTER UPDATE ON `learner_stats` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_learner_stats_ad` AFTER DELETE ON `learner_stats` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_levels_ai` AFTER INSERT ON `levels` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_levels_au` AFTER UPDATE ON `levels` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_levels_ad` AFTER DELETE ON `levels` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_badges_ai` AFTER INSERT ON `badges` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_badges_au` AFTER UPDATE ON `badges` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_badges_ad` AFTER DELETE ON `badges` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_users_ai` AFTER INSERT ON `users` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_users_au` AFTER UPDATE OF `first_name`, `last_name` ON `users` WHEN old.`first_name` IS NOT new.`first_name` OR old.`last_name` IS NOT new.`last_name` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_users_ad` AFTER DELETE ON `users` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 3; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_user_badges_ai` AFTER INSERT ON `user_badges` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_user_badges_au` AFTER UPDATE ON `user_badges` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_user_badges_ad` AFTER DELETE ON `user_badges` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_watch_time_daily_ai` AFTER INSERT ON `watch_time_daily` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_watch_time_daily_au` AFTER UPDATE ON `watch_time_daily` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT new.`user_id`, 1 WHERE new.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL AND old.`user_id` IS NOT new.`user_id` ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_version_watch_time_daily_ad` AFTER DELETE ON `watch_time_daily` BEGIN INSERT INTO `user_versions` (`user_id`, `version`) SELECT old.`user_id`, 1 WHERE old.`user_id` IS NOT NULL ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
