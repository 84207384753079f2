-- The people list in name order (issue 50, app/models/user-list.server.ts): any page of 100,000 people read along the index.
CREATE INDEX `users_name_idx` ON `users` (`last_name`,`first_name`);