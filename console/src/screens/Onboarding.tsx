import { DistributorOnboardingDocument, ShareClassOnboardingDocument, type ChecklistFragment } from '../generated/graphql';
import { ErrorNote, Loading, Panel } from '../ui/parts';
import { Link } from '../ui/router';
import { useQuery } from '../ui/use-query';

/*
 * The onboarding checklist of a share class or a distributor, as the gateway computes it from
 * the rules placement applies (Onboarding in the schema): the page only shows it, and reads it
 * again (`version`) whenever the screen around it changed something.
 */

export function ShareClassChecklist({ id, version }: { id: string; version: number }) {
  const q = useQuery(ShareClassOnboardingDocument, { id }, `${id}:${version}`);
  return <ChecklistPanel self={id} checklist={q.data?.shareClass.onboarding ?? null} error={q.error} />;
}

export function DistributorChecklist({ id, version }: { id: string; version: number }) {
  const q = useQuery(DistributorOnboardingDocument, { id }, `${id}:${version}`);
  return <ChecklistPanel self={id} checklist={q.data?.distributor.onboarding ?? null} error={q.error} />;
}

function ChecklistPanel({ self, checklist, error }: { self: string; checklist: ChecklistFragment | null; error: Error | null }) {
  const missing = checklist?.items.filter((i) => !i.done && i.blocking).length ?? 0;
  return (
    <Panel title="Before the first order">
      <ErrorNote error={error} />
      {!checklist ? (
        !error && <Loading what="the checklist" />
      ) : (
        <>
          <p className={checklist.ready ? 'ready' : 'not-ready'} role="status">
            {checklist.ready
              ? 'Ready: nothing stops a first order.'
              : `${missing} ${missing === 1 ? 'thing' : 'things'} missing before a first order can succeed.`}
          </p>
          <ul className="checklist" aria-label="Onboarding checklist">
            {checklist.items.map((i) => (
              <li key={i.key} data-key={i.key} data-done={String(i.done)}>
                <span className={`mark ${i.done ? 'done' : i.blocking ? 'missing' : 'advice'}`}>
                  {i.done ? '✓ Done' : i.blocking ? '✗ Missing' : '! Advised'}
                </span>
                <span>{i.subject && i.subject !== self ? <Link to={['share-classes', i.subject]}>{i.label}</Link> : i.label}</span>
                {!i.done && i.refusal && <span className="why">Until then an order meets: “{i.refusal}”</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
