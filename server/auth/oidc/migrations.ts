/** Accounts of the identity provider (OpenID Connect sign-in): marked external, linked by issuer + subject, never by name. */
export const OIDC_MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
  {
    id: "0590_oidc",
    sql: `
ALTER TABLE users ADD COLUMN external text;
CREATE TABLE oidc_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL,
  last_sign_in_at timestamptz NOT NULL,
  PRIMARY KEY (issuer, subject)
);
`,
  },
];
