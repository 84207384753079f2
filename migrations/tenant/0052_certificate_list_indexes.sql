-- Issue 50: the issued certificates list at 300,000 certificates (app/models/certificate-list.server.ts). Measured on
-- a copy of the demo with 100,000 people and 300,000 certificates: first page 897 -> 7-12 ms, one course 1,267 -> 1.2,
-- a template 1,200 -> 11, revoked 632 -> 15, the search 1.7 s -> 0.29 s (a covering scan instead of every row's
-- layout). Applied twice it fails: the indexes exist.
CREATE INDEX `certificates_issued_idx` ON `certificates` (`issued_at`);--> statement-breakpoint
CREATE INDEX `certificates_course_issued_idx` ON `certificates` (`course_id`,`issued_at`);--> statement-breakpoint
CREATE INDEX `certificates_template_issued_idx` ON `certificates` (`template_id`,`issued_at`);--> statement-breakpoint
CREATE INDEX `certificates_state_idx` ON `certificates` (`revoked_at`,`expires_on`);--> statement-breakpoint
CREATE INDEX `certificates_person_idx` ON `certificates` (`learner_name`,`course_title`,`public_id`,`user_id`);