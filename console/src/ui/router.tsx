import { useEffect, useState, type ReactNode } from 'react';

/** Hash routes (`#/orders/ord_…`): the gateway serves one index.html, the page routes itself. */
export function useRoute(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;

export function Link({ to, children, className }: { to: string[]; children: ReactNode; className?: string }) {
  return (
    <a href={href(...to)} className={className}>
      {children}
    </a>
  );
}
