package pgstore

// undoAfter5 takes a database back to migration 005 (a test of an
// earlier migration undoes it too, then reopens: the later ones must
// run again after it, as on a database that never had them).
var undoAfter5 = []string{
	"DROP TABLE webhook_attempts", "DROP TABLE webhook_deliveries", // 008
	"DROP TABLE webhook_events", "DROP TABLE webhook_subscriptions",
	"DROP TABLE mail_jobs",                                                                  // 007
	"DROP TABLE client_snapshots", "DROP TABLE client_events", "DROP TABLE client_expiries", // 006
	"DROP FUNCTION client_events_append_only()",
	"DELETE FROM schema_migrations WHERE version > 5",
}
