/** What a process says, once, when its PostgreSQL store stops naming statements (postgres/postgres-store.ts). */
export const PREPARED_STATEMENTS_OFF =
  'PostgreSQL lost a named prepared statement between transactions (a pooler in transaction mode, such as PgBouncer before 1.21): ' +
  'statements go out unnamed from now on; DATABASE_PREPARED_STATEMENTS=false sends them unnamed from the start (docs/deploying.md)';

/** The warning as a line on stderr, for a process without a logger (a command, the cluster's primary). */
export const warnPreparedStatementsOff = (err: Error): void =>
  void process.stderr.write(`ordergate: warning: ${PREPARED_STATEMENTS_OFF} (${err.message})\n`);
