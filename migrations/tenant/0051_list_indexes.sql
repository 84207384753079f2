-- Issue 50's lists at 100,000 people: a course's learners read from the course's own range of lesson_progress (who
-- has progress, their completed lessons and last activity, without the table), and the LRS screen's admin-made
-- credentials found among every launch's. Applied twice it fails: the indexes exist.
CREATE INDEX `lesson_progress_course_user_idx` ON `lesson_progress` (`course_id`,`user_id`,`lesson_id`,`completed_at`,`updated_at`);--> statement-breakpoint
CREATE INDEX `xapi_credentials_purpose_created_idx` ON `xapi_credentials` (`purpose`,`created_at`);