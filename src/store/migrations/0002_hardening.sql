-- Issue 7 (hardening). Hand-written, append-only while the issue is open: each change ends with a statement-breakpoint.
SELECT 1;
