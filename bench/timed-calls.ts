type AsyncMethod = (...args: never[]) => Promise<unknown>;

/**
 * Wraps `target[method]` so the wall time of each call it makes counts (all of them, or those
 * `counted` picks by their arguments) into the list it returns: a bench's outcome work of each
 * batch, timed where the chain sender calls it.
 */
export function timeCalls<T extends Record<K, AsyncMethod>, K extends keyof T>(
  target: T,
  method: K,
  counted?: (...args: Parameters<T[K]>) => boolean,
): number[] {
  const original = target[method].bind(target) as T[K];
  const times: number[] = [];
  const timed = async (...args: Parameters<T[K]>) => {
    const t0 = Date.now();
    const result = await original(...args);
    if (!counted || counted(...args)) times.push(Date.now() - t0);
    return result;
  };
  target[method] = timed as unknown as T[K];
  return times;
}
