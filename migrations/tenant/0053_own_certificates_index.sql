-- Issue 50's bench (200,000 certificates): a learner's own certificates, newest first (/profile/certificates), read
-- every certificate of the organization in issue-day order; along this index 346-461 -> 2-3 ms. Applied twice it
-- fails: the index exists.
CREATE INDEX `certificates_user_issued_idx` ON `certificates` (`user_id`,`issued_at`);