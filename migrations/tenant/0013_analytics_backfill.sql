-- Analytics facts for learning recorded before the analytics tables existed (issue 15): completions at
-- their hour, per course and in the organization's total (course 0); watch time, kept per UTC day until
-- now, at noon UTC of its day. The course of old watch time is not known, so that history counts in the
-- organization's and its people's totals only. The marker table makes a second run fail instead of
-- counting the history twice.
CREATE TABLE `analytics_backfill` (`done_at` integer NOT NULL);
--> statement-breakpoint
INSERT INTO `analytics_backfill` (`done_at`) VALUES (unixepoch());
--> statement-breakpoint
INSERT INTO `analytics_hourly` (`metric`, `hour`, `course_id`, `value`)
SELECT 'completions', `completed_at` / 3600, `course_id`, count(*) FROM `course_completions` GROUP BY 2, 3
ON CONFLICT DO UPDATE SET `value` = `value` + excluded.`value`;
--> statement-breakpoint
INSERT INTO `analytics_hourly` (`metric`, `hour`, `course_id`, `value`)
SELECT 'completions', `completed_at` / 3600, 0, count(*) FROM `course_completions` GROUP BY 2
ON CONFLICT DO UPDATE SET `value` = `value` + excluded.`value`;
--> statement-breakpoint
INSERT INTO `analytics_user_hourly` (`user_id`, `metric`, `hour`, `course_id`, `value`)
SELECT `user_id`, 'completions', `completed_at` / 3600, `course_id`, 1 FROM `course_completions` WHERE true
ON CONFLICT DO UPDATE SET `value` = `value` + excluded.`value`;
--> statement-breakpoint
INSERT INTO `analytics_hourly` (`metric`, `hour`, `course_id`, `value`)
SELECT 'watch_seconds', (unixepoch(`day`) + 43200) / 3600, 0, sum(`seconds`) FROM `watch_time_daily` GROUP BY 2
ON CONFLICT DO UPDATE SET `value` = `value` + excluded.`value`;
--> statement-breakpoint
INSERT INTO `analytics_user_hourly` (`user_id`, `metric`, `hour`, `course_id`, `value`)
SELECT `user_id`, 'watch_seconds', (unixepoch(`day`) + 43200) / 3600, 0, `seconds` FROM `watch_time_daily` WHERE true
ON CONFLICT DO UPDATE SET `value` = `value` + excluded.`value`;
