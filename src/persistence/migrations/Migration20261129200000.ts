import { Migration } from '@mikro-orm/migrations';

/** Fails, naming every address held by more than one holder and each row holding it; nothing when there is none. */
export const SHARED_ADDRESSES_CHECK = `do $$
declare clashes text;
begin
  with holders as (
    select lower(address) as address, 'investor ' || investor_id as holder, 'investor_wallet ' || id as row_name from investor_wallet
    union all
    select lower(address), 'distributor ' || distributor_id, 'distributor_wallet ' || id from distributor_wallet
  ), shared as (
    select address, string_agg(holder || ' (' || row_name || ')', ', ' order by holder, row_name) as rows
    from holders group by address having count(distinct holder) > 1
  )
  select string_agg(address || ': ' || rows, '; ' order by address) into clashes from shared;
  if clashes is not null then
    raise exception 'one address, one holder: these addresses are wallets of more than one holder; decide whose each is and correct the other rows, then migrate again: %', clashes;
  end if;
end $$;`;

/**
 * One address, one holder, in the database (issue 43, point 5). `address_claim` holds every
 * address any holder's wallet ever had, case-folded, with its holder (an investor or a
 * distributor); its primary key on the address is the constraint. Triggers on every table that
 * registers a holder's address (`investor_wallet`, `distributor_wallet`) write the claim in the
 * writer's own statement, so no writer — a service, a script, plain SQL — gets around it, and of
 * two concurrent writers of one address for two holders the second waits for the first's commit
 * and fails with 23505 on `address_claim_pkey`. A claim is never updated nor deleted: a removed
 * wallet's address, or a distributor's former wallet, stays its holder's.
 *
 * The claim is over the address alone, not (chain, address): the custody rule already holds that
 * one key holds an address on every chain (docs/custody.md), so the same address on another
 * chain is the same holder's or nobody's.
 *
 * Addresses already held by more than one holder are not silently given to one of them: the
 * migration fails, naming each address and every row that holds it, so an operator decides whose
 * it is (docs/custody.md#one-address-one-holder).
 */
export class Migration20261129200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(SHARED_ADDRESSES_CHECK);

    this.addSql(`create table "address_claim" (
      "address" text not null,
      "holder_kind" text not null check ("holder_kind" in ('investor', 'distributor')),
      "holder_id" text not null,
      "claimed_at" timestamptz(3) not null default now(),
      constraint "address_claim_pkey" primary key ("address"),
      constraint "address_claim_address_check" check ("address" = lower("address")),
      constraint "address_claim_holder_unique" unique ("address", "holder_kind", "holder_id"));`);

    this.addSql(`insert into "address_claim" ("address", "holder_kind", "holder_id", "claimed_at")
      select lower(address), 'investor', investor_id, min(created_at) from investor_wallet group by 1, 3
      union all
      select lower(address), 'distributor', distributor_id, min(created_at) from distributor_wallet group by 1, 3;`);

    // The claim is written in the writer's statement. Its holder's own claim is nothing new (the
    // arbiter is the holder's unique key); another holder's fails on the primary key: 23505.
    this.addSql(`create function address_claim_write() returns trigger language plpgsql as $$
begin
  insert into address_claim (address, holder_kind, holder_id, claimed_at)
    values (lower(new.address), tg_argv[0], to_jsonb(new) ->> tg_argv[1], now())
    on conflict (address, holder_kind, holder_id) do nothing;
  return null;
end $$;`);
    this.addSql(`create trigger "investor_wallet_address_claim" after insert or update of "address", "investor_id" on "investor_wallet"
      for each row execute function address_claim_write('investor', 'investor_id');`);
    this.addSql(`create trigger "distributor_wallet_address_claim" after insert or update of "address", "distributor_id" on "distributor_wallet"
      for each row execute function address_claim_write('distributor', 'distributor_id');`);

    this.addSql(`create function address_claim_kept() returns trigger language plpgsql as $$
begin
  raise exception 'address_claim rows are kept: an address stays its holder''s (one address, one holder)';
end $$;`);
    this.addSql(`create trigger "address_claim_kept" before update or delete on "address_claim" for each row execute function address_claim_kept();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "investor_wallet_address_claim" on "investor_wallet";`);
    this.addSql(`drop trigger if exists "distributor_wallet_address_claim" on "distributor_wallet";`);
    this.addSql(`drop table if exists "address_claim";`);
    this.addSql(`drop function if exists address_claim_write();`);
    this.addSql(`drop function if exists address_claim_kept();`);
  }
}
