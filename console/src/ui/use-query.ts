import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, request, type Doc } from '../api/client';

export interface QueryState<R> {
  data: R | null;
  error: ApiError | null;
  loading: boolean;
  /** Reads again, keeping what is shown until the answer comes. */
  reload: () => Promise<void>;
}

/** Reads `doc` when `key` changes; a late answer to an earlier key is dropped. */
export function useQuery<R, V>(doc: Doc<R, V>, variables: V, key: string): QueryState<R> {
  const [data, setData] = useState<R | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const vars = useRef(variables);
  vars.current = variables;
  const reload = useCallback(async () => {
    const n = ++latest.current;
    setLoading(true);
    try {
      const r = await request(doc, vars.current);
      if (n === latest.current) {
        setData(r);
        setError(null);
      }
    } catch (e) {
      if (n === latest.current) setError(e instanceof ApiError ? e : new ApiError(String(e), 'ERROR'));
    } finally {
      if (n === latest.current) setLoading(false);
    }
  }, [doc, key]);
  useEffect(() => {
    setData(null);
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}
