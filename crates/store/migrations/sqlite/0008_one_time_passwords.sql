-- An operator's one-time password (`tessera admin users create` or
-- `reset-password`) must be replaced before the account does anything
-- else: set with it, cleared by a successful password change.
ALTER TABLE accounts ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0;
