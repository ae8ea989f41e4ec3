import { Access } from '../../src/access/access';
import { runInScope } from '../../src/common/request-scope';
import type { DealingCalendar } from '../../src/modules/dealing/dealing-calendar.entity';
import type { DealingCalendarInput } from '../../src/modules/dealing/dealing.types';
import type { TestGateway } from './gateway';

const OPS = Access.ops('factory');

/** A share class's dealing calendar set through the service, as the ops mutation would (its event drops the cached rules). */
export function aDealingCalendar(gw: TestGateway, shareClassId: string, input: DealingCalendarInput): Promise<DealingCalendar> {
  return runInScope({ actor: 'factory' }, () => gw.gateway.services.dealing.setCalendar({ em: gw.em(), access: OPS }, shareClassId, input));
}
