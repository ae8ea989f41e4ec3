/**
 * The envelope of every REST response, success or error:
 * `isError` is the single source of truth; `errorMsg` is `NA` on success; `data` is `{}` on error.
 */
export interface Envelope<T = unknown> {
  isError: boolean;
  errorMsg: string;
  data: T | Record<string, never>;
}

export const success = <T>(data: T): Envelope<T> => ({ isError: false, errorMsg: 'NA', data });

export const failure = (message: string): Envelope => ({ isError: true, errorMsg: message, data: {} });
