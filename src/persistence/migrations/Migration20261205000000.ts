import { Migration } from '@mikro-orm/migrations';

/**
 * The KYC claim of a wallet's identity as the gateway issued and revoked it
 * (src/modules/investor/kyc-claim.ts). Wallets whose identity got the claim before carry their
 * investor's KYC expiry from now on, so the expiry job revokes their claim when it passes.
 */
export class Migration20261205000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "investor_wallet" add column "kyc_claim_issued_at" timestamptz(3) null, add column "kyc_claim_expires_at" timestamptz(3) null, add column "kyc_claim_revoked_at" timestamptz(3) null, add column "kyc_claim_issue" int not null default 0;`,
    );
    this.addSql(
      `update "investor_wallet" w set "kyc_claim_issued_at" = coalesce(w."whitelisted_at", w."created_at"), "kyc_claim_expires_at" = i."kyc_expires_at" from "investor" i where i."id" = w."investor_id" and w."onchain_identity" is not null and w."status" <> 'removed';`,
    );
    this.addSql(
      `create index "investor_wallet_kyc_claim_due_index" on "investor_wallet" ("kyc_claim_expires_at") where "kyc_claim_issued_at" is not null and "kyc_claim_revoked_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "investor_wallet_kyc_claim_due_index";`);
    this.addSql(
      `alter table "investor_wallet" drop column "kyc_claim_issued_at", drop column "kyc_claim_expires_at", drop column "kyc_claim_revoked_at", drop column "kyc_claim_issue";`,
    );
  }
}
