import { useState } from 'react';
import { openSession } from '../api/session';
import { ActionForm } from '../ui/action-form';
import { Field } from '../ui/fields';

/** Sign-in with an ops token, exchanged once for the session cookie (api/session.ts); the page keeps nothing of it. */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (name: string) => void; notice?: string | null }) {
  const [token, setToken] = useState('');
  return (
    <main className="signin">
      <h1>Ops console</h1>
      <p className="muted">Fund distribution gateway</p>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ActionForm
        label="Sign in"
        submit={async () => {
          const t = token.trim();
          if (!/^ops_\S+$/.test(t)) throw new Error('an ops token starts with ops_');
          return openSession(t);
        }}
        onDone={(name) => onSignedIn(name as string)}
      >
        <Field
          label="Ops token"
          name="token"
          type="password"
          value={token}
          onChange={setToken}
          required
          autoFocus
          hint="npm run ops-token -- <name>, or the link a development start prints"
        />
      </ActionForm>
    </main>
  );
}
