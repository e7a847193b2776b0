-- Reserved: the number of a migration written beside the mail queue's.
-- Migrations must be numbered without gaps, so this empty one holds the
-- place; when the other migration arrives it replaces this file.
SELECT 1;
