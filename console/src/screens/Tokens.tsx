import { txName } from '../ui/format';
import { useRef, useState } from 'react';
import { request } from '../api/client';
import { ChainTransactionsDocument, CreateTokenDocument, DeployTokenDocument, type ChainTxFragment, type ShareClassDetailQuery } from '../generated/graphql';
import { ActionForm } from '../ui/action-form';
import { Field, Select } from '../ui/fields';
import { Panel, RecordTable } from '../ui/parts';
import { useChainChoice } from './ChainChoice';
import { ChainTxState } from './ChainTransaction';
import { useChainLive } from '../ui/use-chain-live';

type Token = ShareClassDetailQuery['shareClass']['tokens'][number];

/** The share class's tokens, and the two ways to get one: deploy it on a configured chain, or register a contract that exists. */
export function TokensPanel({ shareClassId, tokens, onChange }: { shareClassId: string; tokens: Token[]; onChange: () => void }) {
  const [mode, setMode] = useState<'deploy' | 'register'>('deploy');
  return (
    <Panel title="Tokens">
      <RecordTable
        label="Tokens"
        what="tokens"
        records={tokens}
        rowKey={(t) => t.id}
        empty="No token yet: the first token becomes the primary one, and its chain the default chain."
        columns={[
          { header: 'Token', cell: (t) => t.id, className: 'mono' },
          { header: 'Name', cell: (t) => t.name },
          { header: 'Symbol', cell: (t) => t.symbol },
          { header: 'Chain', cell: (t) => t.chainId },
          { header: 'Contract', cell: (t) => t.contractAddress, className: 'mono' },
          { header: 'Decimals', cell: (t) => t.decimals, num: true },
          { header: 'Primary', cell: (t) => (t.isPrimary ? 'primary' : '') },
        ]}
      />
      <Select
        label="New token"
        name="tokenMode"
        value={mode}
        onChange={(v) => setMode(v as 'deploy' | 'register')}
        options={[
          ['deploy', 'Deploy a new ERC-3643 suite'],
          ['register', 'Register an existing contract'],
        ]}
      />
      {mode === 'deploy' ? (
        <DeployToken shareClassId={shareClassId} first={!tokens.length} onDone={onChange} />
      ) : (
        <RegisterToken shareClassId={shareClassId} first={!tokens.length} onDone={onChange} />
      )}
    </Panel>
  );
}

/**
 * The fields both ways share; `decimals` arrives as typed and the gateway says what it accepts.
 * A deployment signs, so it offers the chains the gateway has an agent key for; a registration
 * any configured chain, or another one typed in.
 */
function useTokenFields(first: boolean, way: 'deploy' | 'register') {
  const chain = useChainChoice(way === 'deploy' ? { writable: true, other: false } : { writable: false, other: true });
  const [name, setName] = useState('');
  const [symbol, setSymbol] = useState('');
  const [decimals, setDecimals] = useState('6');
  const [primary, setPrimary] = useState(first ? 'yes' : 'no');
  const input = () => ({ chainId: chain.chainId, name, symbol, decimals: Number(decimals), isPrimary: primary === 'yes' });
  const fields = (
    <>
      {chain.fields}
      <Field label="Token name" name="name" value={name} onChange={setName} />
      <Field label="Symbol" name="symbol" value={symbol} onChange={setSymbol} />
      <Field label="Decimals" name="decimals" type="number" value={decimals} onChange={setDecimals} />
      <Select
        label="Primary token"
        name="isPrimary"
        value={primary}
        onChange={setPrimary}
        options={[
          ['yes', 'Yes: its chain becomes the default chain'],
          ['no', 'No'],
        ]}
      />
    </>
  );
  return { input, fields, chainId: chain.chainId };
}

/**
 * Deployment is one synchronous call that sends its transactions and waits for each (the chain's
 * one-time set-up, 17, then the token's suite from T-REX's factory and its unpause); while
 * it runs, the page reads the chain's newest `deploy` transactions again as each becomes final, so
 * ops see every step confirmed as it happens (or the one that failed, and why).
 */
function DeployToken({ shareClassId, first, onDone }: { shareClassId: string; first: boolean; onDone: () => void }) {
  const f = useTokenFields(first, 'deploy');
  const [txs, setTxs] = useState<ChainTxFragment[]>([]);
  const [deployed, setDeployed] = useState<string | null>(null);
  const watch = useRef<{ chainId: string; after: bigint } | null>(null);
  const read = async () => {
    const w = watch.current;
    if (!w) return;
    const r = await request(ChainTransactionsDocument, { chainId: w.chainId, purpose: 'deploy', last: 100 }).catch(() => null);
    if (r && watch.current === w) setTxs(r.chainTransactions.filter((t) => BigInt(t.id) > w.after).reverse());
  };
  useChainLive(read, (tx) => tx.purpose.startsWith('deploy') && tx.chainId === watch.current?.chainId);
  return (
    <>
      <ActionForm
        operation="deployToken"
        label="Deploy token"
        input="DeployTokenInput"
        busyLabel="Deploying…"
        className="inline"
        submit={async () => {
          setDeployed(null);
          setTxs([]);
          // Only the transactions sent after this moment are this deployment's.
          const before = await request(ChainTransactionsDocument, { chainId: f.chainId, purpose: 'deploy', last: 1 });
          watch.current = { chainId: f.chainId, after: BigInt(before.chainTransactions[0]?.id ?? 0) };
          try {
            return await request(DeployTokenDocument, { input: { shareClassId, ...f.input() } });
          } finally {
            await read();
          }
        }}
        onDone={(r) => {
          const t = (r as { deployToken: { id: string; contractAddress: string; chainId: string; isPrimary: boolean } }).deployToken;
          setDeployed(`Token ${t.id} deployed on chain ${t.chainId} at ${t.contractAddress}${t.isPrimary ? ', primary' : ''}.`);
          onDone();
        }}
      >
        {f.fields}
      </ActionForm>
      {txs.length > 0 && (
        <ol className="plain" aria-label="Deployment transactions">
          {txs.map((t) => (
            <li key={t.id}>
              {txName(t)} <span className="muted">(transaction {t.id})</span>
              {t.contractAddress && <> creates {t.contractAddress}</>}: <ChainTxState tx={t} />
            </li>
          ))}
        </ol>
      )}
      {deployed && (
        <p className="notice" role="status">
          {deployed}
        </p>
      )}
    </>
  );
}

/** A contract deployed elsewhere: on a chain the gateway writes to, it checks ERC-3643 and its agent roles (the 400 says which is missing). */
function RegisterToken({ shareClassId, first, onDone }: { shareClassId: string; first: boolean; onDone: () => void }) {
  const f = useTokenFields(first, 'register');
  const [contractAddress, setAddress] = useState('');
  const [registered, setRegistered] = useState<string | null>(null);
  return (
    <>
      <ActionForm
        operation="createToken"
        label="Register token"
        input="CreateTokenInput"
        className="inline"
        submit={() => (setRegistered(null), request(CreateTokenDocument, { input: { shareClassId, contractAddress: contractAddress.trim(), ...f.input() } }))}
        onDone={(r) => {
          const t = (r as { createToken: { id: string; contractAddress: string } }).createToken;
          setRegistered(`Token ${t.id} registered at ${t.contractAddress}.`);
          onDone();
        }}
      >
        <Field label="Contract address" name="contractAddress" value={contractAddress} onChange={setAddress} placeholder="0x…" />
        {f.fields}
      </ActionForm>
      {registered && (
        <p className="notice" role="status">
          {registered}
        </p>
      )}
    </>
  );
}
