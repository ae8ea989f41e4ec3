/**
 * A socket closed for its credential (4401: expired or revoked; 4403: refused at connection) is
 * not retried: the same token would be refused again, forever. The next subscription after a new
 * sign-in opens a new client. Anything else (network loss, a restart) is retried.
 */
export const retryable = (closed: unknown): boolean => {
  const code = (closed as { code?: number } | null)?.code;
  return code !== 4401 && code !== 4403;
};
