import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { onSignedOut, request, sessionChanged } from './api/client';
import { endSession, onTokenFromLink, openSession, takeTokenFromLink } from './api/session';
import { ApprovalsWaitingDocument, MeDocument, OpsTokenNameDocument } from './generated/graphql';
import { Approvals, AuditLog } from './screens/Approvals';
import { Principals } from './screens/Principals';
import { may, MeContext, type SignedIn } from './ui/me';
import { Blotter } from './screens/Blotter';
import { BookScreen } from './screens/Book';
import { TodayScreen } from './screens/Today';
import { Distributions } from './screens/Distributions';
import { DistributorDetail, DistributorList } from './screens/Distributors';
import { InvestorDetail, InvestorList } from './screens/Investors';
import { IssuerDetail, IssuerList } from './screens/Issuers';
import { OrderDetail } from './screens/OrderDetail';
import { EditShareClass, NewShareClass } from './screens/ShareClassForm';
import { EligibilityRuleSets, EligibilityRuleSetScreen } from './screens/EligibilityRules';
import { ShareClassDetail, ShareClassList } from './screens/ShareClasses';
import { SignIn } from './screens/SignIn';
import { Webhooks } from './screens/Webhooks';
import { Loading } from './ui/parts';
import { useApprovalsLive } from './ui/use-chain-live';
import { useQuery } from './ui/use-query';
import { href, useRoute } from './ui/router';
import './styles.css';

const SECTIONS: [string, string][] = [
  ['today', 'Today'],
  ['book', 'Book'],
  ['orders', 'Blotter'],
  ['issuers', 'Issuers'],
  ['share-classes', 'Share classes'],
  ['distributions', 'Distributions'],
  ['distributors', 'Distributors'],
  ['investors', 'Investors'],
  ['webhooks', 'Webhooks'],
  ['approvals', 'Approvals'],
  ['principals', 'Principals'],
];

/** Sections only some roles may open. */
const AUDIT_SECTION: [string, string] = ['audit', 'Audit log'];

function Screen({ route }: { route: string[] }) {
  const [section, id, sub] = route;
  switch (section) {
    case 'issuers':
      return id ? <IssuerDetail id={id} key={id} /> : <IssuerList />;
    case 'share-classes':
      if (id === 'new') return <NewShareClass fundId={sub} key={sub ?? ''} />;
      if (id && sub === 'edit') return <EditShareClass id={id} key={`${id}/edit`} />;
      return id ? <ShareClassDetail id={id} key={id} /> : <ShareClassList />;
    case 'eligibility':
      return id ? <EligibilityRuleSetScreen code={id} key={id} /> : <EligibilityRuleSets />;
    case 'distributions':
      return <Distributions shareClassId={id} />;
    case 'distributors':
      return id ? <DistributorDetail id={id} key={id} /> : <DistributorList />;
    case 'investors':
      return id ? <InvestorDetail id={id} key={id} /> : <InvestorList />;
    case 'webhooks':
      return <Webhooks />;
    case 'approvals':
      return <Approvals />;
    case 'principals':
      return <Principals />;
    case 'audit':
      return <AuditLog />;
    case 'orders':
      return id ? <OrderDetail id={id} key={id} /> : <Blotter />;
    case 'book':
      return <BookScreen />;
    case 'today':
    default:
      return <TodayScreen />;
  }
}

/** The menu's count of requests awaiting a decision, kept live as requests are made and decided. */
function ApprovalsWaiting() {
  const q = useQuery(ApprovalsWaitingDocument, {}, 'approvals-waiting');
  useApprovalsLive(() => void q.reload());
  const n = q.data?.approvalRequests.length ?? 0;
  return n ? (
    <span className="badge">
      {' '}
      {n}
      <span className="sr-only"> waiting</span>
    </span>
  ) : null;
}

function App() {
  const route = useRoute();
  const [name, setName] = useState<string | null>(null);
  const [me, setMe] = useState<SignedIn | null>(null);
  const [checking, setChecking] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  // Whether a session was in use: only then does a refusal say the session ended (a first visit just signs in).
  const signedIn = useRef(false);
  const signOut = (why: string | null) => {
    sessionChanged();
    signedIn.current = false;
    setName(null);
    setNotice(why);
  };
  const [session, setSession] = useState(0);
  useEffect(() => onSignedOut(() => signedIn.current && signOut('Your session has ended: sign in again.')), []);
  useEffect(
    () =>
      onTokenFromLink((opened) => {
        linkSession = opened;
        setNotice(null);
        setChecking(true);
        setSession((n) => n + 1);
      }),
    [],
  );
  useEffect(() => {
    // A link's token is exchanged first (api/session.ts); then the cookie says who is signed in, if anyone.
    const link = linkSession;
    linkSession = null;
    (link ?? Promise.resolve(null))
      .then((opened) => (opened !== null && sessionChanged(), request(OpsTokenNameDocument, {})))
      .then((r) => ((signedIn.current = true), setName(r.opsTokenName)))
      .catch(() => (setName(null), link && setNotice('The gateway does not accept this sign-in link: sign in again.')))
      .finally(() => setChecking(false));
  }, [session]);
  useEffect(() => {
    if (!name) return setMe(null);
    request(MeDocument, {})
      .then((r) => setMe(r.me))
      .catch(() => setMe({ principal: `ops:${name}`, name, roles: [], mayCall: [] }));
  }, [name, session]);
  if (checking) return <Loading what="the console" />;
  if (!name) return <SignIn notice={notice} onSignedIn={(n) => (sessionChanged(), (signedIn.current = true), setNotice(null), setName(n))} />;
  if (!me) return <Loading what="the console" />;
  const sections = may(me, 'auditLog') ? [...SECTIONS, AUDIT_SECTION] : SECTIONS;
  // An approver's day is the inbox: a principal who may decide requests but not move orders lands there.
  const home = may(me, 'approveRequest') && !may(me, 'acceptOneStepOrder') ? 'approvals' : 'today';
  const section = route[0] ?? home;
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
            {sections.map(([key, label]) => (
              <li key={key}>
                <a href={href(key)} aria-current={section === key ? 'page' : undefined}>
                  {label}
                  {key === 'approvals' && <ApprovalsWaiting />}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who">
          Signed in as <strong>{name}</strong> ({me.roles.join(', ')})
          <button type="button" onClick={() => void endSession().then(() => signOut(null))}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main">
        <MeContext.Provider value={me}>
          <Screen route={route.length ? route : [home]} />
        </MeContext.Provider>
      </main>
    </div>
  );
}

/** The session a sign-in link's token is being exchanged for, until the app has waited for it. */
let linkSession: Promise<string> | null = (() => {
  const token = takeTokenFromLink();
  return token ? openSession(token) : null;
})();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
