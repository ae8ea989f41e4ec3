import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { DECIMAL_COLUMN, VOLUME_COLUMN } from '../../common/money';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { ShareClass } from '../share-class';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * A NAV struck for a share class. `entryId` is `publishedAt` as `YYYYMMDDHHMMSS` (UTC): it sorts
 * chronologically as a string and is unique within the share class.
 */
@ObjectType('Nav')
@Entity({ tableName: 'nav' })
@Unique({ properties: ['shareClass', 'entryId'] })
@Index({ properties: ['shareClass', 'publishedAt'] })
export class Nav extends Audited {
  @Field(() => ID, { description: 'What `navCorrectionPreview` and `requestNavCorrection` name it by' })
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => ShareClass, { deleteRule: 'restrict' })
  shareClass: ShareClass;

  @Field(() => String)
  @Property({ type: 'text' })
  entryId: string;

  @Field(() => DecimalScalar, { description: 'Closing price; the canonical NAV' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN })
  close: string;

  @Field(() => DecimalScalar)
  @Property({ type: 'decimal', ...DECIMAL_COLUMN })
  open: string;

  @Field(() => DecimalScalar)
  @Property({ type: 'decimal', ...DECIMAL_COLUMN })
  high: string;

  @Field(() => DecimalScalar)
  @Property({ type: 'decimal', ...DECIMAL_COLUMN })
  low: string;

  @Field(() => String)
  @Property({ type: 'text' })
  currency: string;

  @Field(() => Number)
  @Property({ type: 'decimal', ...VOLUME_COLUMN, default: '0' })
  volume: Opt<string> = '0';

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  publishedAt: Date;

  @Field(() => String, { description: 'The principal that struck (published) it: `ops:<name>`, or the job that seeded it' })
  @Property({ type: 'text' })
  struckBy: string;

  @Field(() => String, {
    nullable: true,
    description: 'The second principal that confirmed it, for a NAV outside the tolerance; null when it was within it and confirmed at once',
  })
  @Property({ type: 'text', nullable: true })
  confirmedBy?: string | null;

  /** The four-eyes request (`nav_confirmation`) a second principal confirmed it by; null when confirmed at once. */
  @Property({ type: bigintColumn(), nullable: true })
  confirmationRequestId?: string | null;

  @Field(() => DecimalScalar, {
    nullable: true,
    description: 'The close it was struck with, once a correction changed `close`; null while it was never corrected',
  })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  originalClose?: string | null;

  @Field(() => String, { nullable: true, description: 'The principal that requested its last correction (`ops:<name>`)' })
  @Property({ type: 'text', nullable: true })
  correctedBy?: string | null;

  @Field(() => EpochMs, { nullable: true, description: 'When its last correction was approved' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  correctedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was corrected' })
  @Property({ type: 'text', nullable: true })
  correctionReason?: string | null;

  /** The `nav_correction` request that corrected it last. */
  @Property({ type: bigintColumn(), nullable: true })
  correctionRequestId?: string | null;
}

/** `YYYYMMDDHHMMSS` of an instant, in UTC. */
export function entryIdOf(publishedAt: Date): string {
  return publishedAt.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
