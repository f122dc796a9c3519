ALTER TYPE "public"."password_token_purpose" ADD VALUE 'verify_email';--> statement-breakpoint
ALTER TYPE "public"."password_token_purpose" ADD VALUE 'email_change';--> statement-breakpoint
ALTER TYPE "public"."password_token_purpose" ADD VALUE 'email_change_cancel';--> statement-breakpoint
ALTER TYPE "public"."password_token_purpose" ADD VALUE 'mfa_challenge';--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "session_retired_secrets" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"retired_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "password_tokens" ADD COLUMN "new_email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_enabled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ADD CONSTRAINT "mfa_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_retired_secrets" ADD CONSTRAINT "session_retired_secrets_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_recovery_codes_user_idx" ON "mfa_recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "session_retired_secrets_session_idx" ON "session_retired_secrets" USING btree ("session_id");--> statement-breakpoint
-- TRUNCATE skips row and statement triggers for UPDATE/DELETE; refuse it with its own trigger.
CREATE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
--> statement-breakpoint
-- Accounts from before email confirmation: staff were added by operators or matched a roster, and
-- linked patients were vetted by their physician. Unlinked patient accounts must confirm.
UPDATE "users" SET "email_verified_at" = "created_at"
  WHERE "role" <> 'PATIENT' OR "id" IN (SELECT "patient_id" FROM "patient_physicians");
