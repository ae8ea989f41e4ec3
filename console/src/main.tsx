import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { closeLive, onSignedOut, request } from './api/client';
import { currentToken, forgetToken, onTokenFromLink, takeTokenFromLink } from './api/session';
import { OpsTokenNameDocument } from './generated/graphql';
import { Blotter } from './screens/Blotter';
import { DistributorDetail, DistributorList } from './screens/Distributors';
import { InvestorDetail, InvestorList } from './screens/Investors';
import { IssuerDetail, IssuerList } from './screens/Issuers';
import { OrderDetail } from './screens/OrderDetail';
import { EditShareClass, NewShareClass } from './screens/ShareClassForm';
import { ShareClassDetail, ShareClassList } from './screens/ShareClasses';
import { SignIn } from './screens/SignIn';
import { Webhooks } from './screens/Webhooks';
import { Loading } from './ui/parts';
import { href, useRoute } from './ui/router';
import './styles.css';

const SECTIONS: [string, string][] = [
  ['orders', 'Blotter'],
  ['issuers', 'Issuers'],
  ['share-classes', 'Share classes'],
  ['distributors', 'Distributors'],
  ['investors', 'Investors'],
  ['webhooks', 'Webhooks'],
];

function Screen({ route }: { route: string[] }) {
  const [section, id, sub] = route;
  switch (section) {
    case 'issuers':
      return id ? <IssuerDetail id={id} key={id} /> : <IssuerList />;
    case 'share-classes':
      if (id === 'new') return <NewShareClass fundId={sub} key={sub ?? ''} />;
      if (id && sub === 'edit') return <EditShareClass id={id} key={`${id}/edit`} />;
      return id ? <ShareClassDetail id={id} key={id} /> : <ShareClassList />;
    case 'distributors':
      return id ? <DistributorDetail id={id} key={id} /> : <DistributorList />;
    case 'investors':
      return id ? <InvestorDetail id={id} key={id} /> : <InvestorList />;
    case 'webhooks':
      return <Webhooks />;
    case 'orders':
    default:
      return id ? <OrderDetail id={id} key={id} /> : <Blotter />;
  }
}

function App() {
  const route = useRoute();
  const [name, setName] = useState<string | null>(null);
  const [checking, setChecking] = useState(() => currentToken() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = (why: string | null) => {
    forgetToken();
    closeLive();
    setName(null);
    setNotice(why);
  };
  const [session, setSession] = useState(0);
  useEffect(() => onSignedOut(() => signOut('The gateway no longer accepts this token: sign in again.')), []);
  useEffect(() => onTokenFromLink(() => (closeLive(), setNotice(null), setChecking(true), setSession((n) => n + 1))), []);
  useEffect(() => {
    if (!currentToken()) return;
    request(OpsTokenNameDocument, {})
      .then((r) => setName(r.opsTokenName))
      .catch(() => signOut('The gateway does not accept this token: sign in again.'))
      .finally(() => setChecking(false));
  }, [session]);
  if (checking) return <Loading what="the console" />;
  if (!name) return <SignIn notice={notice} onSignedIn={(n) => (setNotice(null), setName(n))} />;
  const section = route[0] ?? 'orders';
  return (
    <div className="shell">
      {/* Not href="#main": the hash is the route. */}
      <button type="button" className="skip" onClick={() => document.querySelector<HTMLElement>('main h1')?.focus()}>
        Skip to content
      </button>
      <header className="top">
        <span className="brand">Ops console</span>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map(([key, label]) => (
              <li key={key}>
                <a href={href(key)} aria-current={section === key ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who">
          Signed in as <strong>{name}</strong>
          <button type="button" onClick={() => signOut(null)}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main">
        <Screen route={route} />
      </main>
    </div>
  );
}

takeTokenFromLink();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
